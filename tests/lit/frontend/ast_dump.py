# --emit=ast prints every statement and expression with line:col+length; pragmas ride on the next statement.
# RUN: %asc-fe --emit=ast %s | FileCheck %s
import numpy as np

def f(a, b=2):
    # pragma: parallelize factor=2
    for i in range(0, 8, 2):
        a[i:i + 2] += b * -a[i]
    return a if b else a.T

# CHECK-LABEL: Module "{{.*}}ast_dump.py"
# CHECK-NEXT:   Import @3:1+18
# CHECK-NEXT:     Alias numpy as np @3:8+11
# CHECK-NEXT:   FunctionDef f @5:1+13
# CHECK-NEXT:     Param a @5:7+1
# CHECK-NEXT:     Param b @5:10+1
# CHECK-NEXT:       default: Int 2 @5:12+1
# CHECK-NEXT:     Pragma parallelize factor=2 @6:5+30
# CHECK-NEXT:     For @7:5+23
# CHECK-NEXT:       target: Name i @7:9+1
# CHECK-NEXT:       value: Call @7:14+14
# CHECK-NEXT:         Name range @7:14+5
# CHECK-NEXT:         Int 0 @7:20+1
# CHECK-NEXT:         Int 8 @7:23+1
# CHECK-NEXT:         Int 2 @7:26+1
# CHECK-NEXT:       AugAssign + @8:9+23
# CHECK-NEXT:         target: Subscript @8:9+10
# CHECK-NEXT:           Name a @8:9+1
# CHECK-NEXT:           Slice @8:11+7
# CHECK-NEXT:             Name i @8:11+1
# CHECK-NEXT:             BinOp + @8:13+5
# CHECK-NEXT:               Name i @8:13+1
# CHECK-NEXT:               Int 2 @8:17+1
# CHECK-NEXT:             <none>
# CHECK-NEXT:         value: BinOp * @8:23+9
# CHECK-NEXT:           Name b @8:23+1
# CHECK-NEXT:           UnaryOp - @8:27+5
# CHECK-NEXT:             Subscript @8:28+4
# CHECK-NEXT:               Name a @8:28+1
# CHECK-NEXT:               Name i @8:30+1
# CHECK-NEXT:     Return @9:5+22
# CHECK-NEXT:       value: IfExp @9:12+15
# CHECK-NEXT:         Name a @9:12+1
# CHECK-NEXT:         Name b @9:17+1
# CHECK-NEXT:         Attribute T @9:24+3
# CHECK-NEXT:           Name a @9:24+1
