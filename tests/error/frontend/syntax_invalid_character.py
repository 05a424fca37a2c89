# RUN: asc-fe --emit=graph %s
a = 1 $ 2
