print("babydash")
