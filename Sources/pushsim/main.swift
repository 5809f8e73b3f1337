print("pushsim")
