from sparkcep.clients.cli import main

main()
