# RUN: asc-fe --emit=graph %s
n = 1
while n > 0:
    n += 1e30
