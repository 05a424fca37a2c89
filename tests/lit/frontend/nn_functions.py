# pyasc.nn functions map to NN registry operators; activations are elementwise.
# RUN: %asc-fe --emit=graph --no-locations --entry=block %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32, nn
from pyasc.nn import softmax

def block(x: Tensor[float32, 4, 10], g: Tensor[float32, 10], b: Tensor[float32, 10]):
    y = nn.layer_norm(x, g, b, eps=1e-6)
    bn = nn.batch_norm(x[:, :, None], g, b, g, b, axis=1)
    return softmax(y, axis=-1), nn.log_softmax(x), nn.relu(x), nn.gelu(x), nn.sigmoid(x), nn.leaky_relu(x, 0.2), nn.tanh(x), bn

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f32[4,10]
# CHECK-NEXT:   input %g : f32[10]
# CHECK-NEXT:   input %b : f32[10]
# CHECK-NEXT:   %y = LayerNorm(%x, %g, %b) {axis = -1, epsilon = 1e-06} : f32[4,10]
# CHECK-NEXT:   %expanddims = ExpandDims(%x) {axes = [2]} : f32[4,10,1]
# CHECK-NEXT:   %bn = BatchNorm(%expanddims, %g, %b, %g, %b) {axis = 1, epsilon = 1e-05} : f32[4,10,1]
# CHECK-NEXT:   %softmax = Softmax(%y) {axis = -1} : f32[4,10]
# CHECK-NEXT:   %logsoftmax = LogSoftmax(%x) {axis = -1} : f32[4,10]
# CHECK-NEXT:   %relu = Relu(%x) : f32[4,10]
# CHECK-NEXT:   %gelu = Gelu(%x) : f32[4,10]
# CHECK-NEXT:   %sigmoid = Sigmoid(%x) : f32[4,10]
# CHECK-NEXT:   %leakyrelu = LeakyRelu(%x) {alpha = 0.2} : f32[4,10]
# CHECK-NEXT:   %tanh = Tanh(%x) : f32[4,10]
# CHECK-NEXT:   output out0 = %softmax
# CHECK-NEXT:   output out1 = %logsoftmax
# CHECK-NEXT:   output out2 = %relu
# CHECK-NEXT:   output out3 = %gelu
# CHECK-NEXT:   output out4 = %sigmoid
# CHECK-NEXT:   output out5 = %leakyrelu
# CHECK-NEXT:   output out6 = %tanh
# CHECK-NEXT:   output out7 = %bn
# CHECK-NEXT: }
