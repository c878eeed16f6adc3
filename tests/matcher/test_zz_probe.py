def test_x():
    import dialect, sys
    print("DIALECT", dialect, [p for p in sys.path][:4])
