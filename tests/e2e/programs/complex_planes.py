# Complex numbers and arrays as pairs of real planes: literals, arithmetic as NumPy computes it
# (Smith's division, integer powers by products), NumPy's complex functions, indexing and masked
# writes through both planes, products, sums, an in-place loop, and complex outputs.
import numpy as np

np.random.seed(11)
x = np.random.rand(6, 8).astype(np.float32) - 0.5
y = np.random.rand(6, 8).astype(np.float32) - 0.5
z = x + 1j * y                        # complex64
u = (y - 0.25) + 0.5j

total = z + u - 2.5j
product = z * u
quotient = z / u                      # complex by complex
by_real = z / (x + 2.0)               # complex by real
real_by = 3.0 / u                     # real by complex
powers = z ** 2 + z ** 3 - u ** -1 + z ** 0
magnitude = np.abs(product) + abs(quotient)
phase = np.angle(z)
parts = np.real(powers) - np.imag(powers) + z.real * z.imag
rotated = np.exp(1j * x) * np.conj(z)
overflowed = np.exp(np.array([100.0, 1.0], dtype=np.float32) + 0j)   # inf + 0j, as NumPy
equal = (z == z) & (z != u)

# shapes, slices, transposes and reductions act on both planes
column_sums = np.sum(z, axis=0)
row_means = z.mean(axis=1)
corner = z[1:4, ::2].T
matrix = z[:, :6] @ u[:6, :]          # complex @ complex
mixed = z @ x.T                       # complex @ real

# creation with a complex dtype, writes through a mask and an index
grid = np.zeros((6, 8), dtype=np.complex64)
inside = np.abs(z) < 0.5
grid[inside] = z[inside] * 2.0 + 1j
grid[0] = 1.0 - 1j
grid[:, -1] += 0.5j
ones = np.ones(4, np.complex64) * (2 - 1j)

# a loop kept as a loop that updates a complex array in place
w = np.full((6, 8), 0.1 + 0.0j, dtype=np.complex64)
for step in range(5):
    w[:] = w * w + 0.25j * u

# complex arrays rebound by a loop kept as a loop and by a while loop on their data
c = np.linspace(-1, 0.3, 8).astype(np.float32) + 0.5j
orbit = np.zeros(8, np.complex64)
for n in range(10):
    orbit = orbit * orbit + c
escapes = 0
v = np.zeros(8, np.complex64) + 0.1j
while np.abs(v).max() < 4.0:
    v = v * v + c + 0.3
    escapes += 1
escape_count = np.array([escapes])

# results are arrays of their own: writing into one leaves its operands alone
shifted = z + 1
shifted[0] = 3 + 4j
flipped = np.conj(z)
flipped[1, 1] = 0
# if on array data selects complex values, and writes into complex arrays, by its condition
if x.sum() > 100:
    chosen = z * 2
    grid[2, 2] = 5j
else:
    chosen = z - 1j
pair_sum = sum([z, u, 1j])
unit = z ** 0
angles = np.angle(z, deg=True) + np.angle(x)
shape_only = np.zeros_like(z, dtype=np.float32) + np.imag(x)
as_complex = np.complex64(x) * z.conj()
half = x.astype(np.float16) * 1j        # complex64, as NumPy
picked = z[1, np.arange(4) * 2]
drifted = z.copy()
for i in range(3):
    step_term = x * 1j + i
    drifted.imag[:] += 0.5
