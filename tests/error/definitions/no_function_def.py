import te


def something_else(x):
    return x
