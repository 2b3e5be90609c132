print("feeds")
