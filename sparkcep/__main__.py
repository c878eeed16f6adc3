from sparkcep.cli import main

main()
