"""The parts of GL that piglit's shader_runner relies on, modelled in Python
(standard library only) for shader_runner.py: the fixed-function matrices
(identity unless `ortho` / `frustum`), piglit's generated textures written
as PNG files, and triangle rasterization at pixel centres.
"""

import math
import struct
import zlib


# -- matrices: lists of 4 rows; uniforms take them column-major ----------
def identity(n=4):
    return [[1.0 if r == c else 0.0 for c in range(n)] for r in range(n)]


def ortho(left, right, bottom, top, near, far):
    """glOrtho's matrix."""
    return [[2 / (right - left), 0, 0, -(right + left) / (right - left)],
            [0, 2 / (top - bottom), 0, -(top + bottom) / (top - bottom)],
            [0, 0, -2 / (far - near), -(far + near) / (far - near)],
            [0, 0, 0, 1.0]]


def frustum(left, right, bottom, top, near, far):
    """glFrustum's matrix."""
    return [[2 * near / (right - left), 0, (right + left) / (right - left), 0],
            [0, 2 * near / (top - bottom), (top + bottom) / (top - bottom), 0],
            [0, 0, -(far + near) / (far - near), -2 * far * near / (far - near)],
            [0, 0, -1.0, 0]]


def multiply(a, b):
    n = len(a)
    return [[sum(a[r][k] * b[k][c] for k in range(n)) for c in range(n)] for r in range(n)]


def transpose(m):
    return [list(col) for col in zip(*m)]


def inverse(m):
    """Gauss-Jordan inverse; None when singular."""
    n = len(m)
    a = [list(map(float, row)) + [1.0 if r == c else 0.0 for c in range(n)]
         for r, row in enumerate(m)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(a[r][c]))
        if abs(a[pivot][c]) < 1e-30:
            return None
        a[c], a[pivot] = a[pivot], a[c]
        p = a[c][c]
        a[c] = [v / p for v in a[c]]
        for r in range(n):
            if r != c and a[r][c]:
                f = a[r][c]
                a[r] = [v - f * w for v, w in zip(a[r], a[c])]
    return [row[n:] for row in a]


def apply(m, v):
    return [sum(m[r][k] * v[k] for k in range(4)) for r in range(4)]


def column_major(m):
    return [m[r][c] for c in range(len(m[0])) for r in range(len(m))]


def state_matrices(projection):
    """Every built-in matrix uniform of GLSL 1.10/1.20 by name, for a
    modelview and texture matrices of identity (shader_runner never changes
    them) and the given projection."""
    modelview = identity()
    base = {"gl_ModelViewMatrix": modelview, "gl_ProjectionMatrix": projection,
            "gl_ModelViewProjectionMatrix": multiply(projection, modelview)}
    for k in range(8):
        base["gl_TextureMatrix[%d]" % k] = identity()
    out = {}
    for name, m in base.items():
        inv = inverse(m)
        out[name] = m
        out[name.replace("Matrix", "MatrixTranspose")] = transpose(m)
        if inv is not None:
            out[name.replace("Matrix", "MatrixInverse")] = inv
            out[name.replace("Matrix", "MatrixInverseTranspose")] = transpose(inv)
    out["gl_NormalMatrix"] = identity(3)  # inverse transpose of modelview's 3x3
    return out


# -- piglit's generated textures ------------------------------------------
def depth_texels(w, h):
    """piglit_depth_texture: depth x / (w - 1), 0 at the left side to 1 at
    the right, in every channel as 8-bit texels (the compiled compare reads
    the red)."""
    row = [(v, v, v, 255) for v in (int(round(255 * x / (w - 1))) for x in range(w))]
    return [list(row) for _ in range(h)]


def rgbw_texels(w, h):
    """piglit_rgbw_image without alpha: red, green / blue, white quadrants
    (row 0 at the bottom, red bottom left)."""
    red, green, blue, white = (255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), \
        (255, 255, 255, 255)
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            if y < h // 2:
                row.append(red if x < w // 2 else green)
            else:
                row.append(blue if x < w // 2 else white)
        rows.append(row)
    return rows


def to_ubyte(c):
    return int(round(min(1.0, max(0.0, c)) * 255.0))


def checkerboard_texels(w, h, colour0, colour1):
    """piglit_checkerboard_texture with squares of w/2 x h/2: colour0 where
    (row ^ column) of the square is even."""
    c0 = tuple(to_ubyte(c) for c in colour0)
    c1 = tuple(to_ubyte(c) for c in colour1)
    sw, sh = max(1, w // 2), max(1, h // 2)
    return [[c1 if ((y // sh) ^ (x // sw)) & 1 else c0 for x in range(w)] for y in range(h)]


def write_png(path, rows):
    """An RGBA8 PNG of rows (row 0 = bottom, as uscc-run reads it)."""
    h, w = len(rows), len(rows[0])
    raw = b"".join(b"\x00" + bytes(c for texel in row for c in texel) for row in reversed(rows))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# -- rasterization ----------------------------------------------------------
def signed_area(p0, p1, p2):
    return (p1[0] - p0[0]) * (p2[1] - p0[1]) - (p2[0] - p0[0]) * (p1[1] - p0[1])


SUBPIXEL = 256   # GL snaps window coordinates to a sub-pixel grid; so does this


def triangle_spans(p0, p1, p2, width, height):
    """(row, first, end) spans of the pixels whose centres the triangle
    covers, in window coordinates (y up).  Vertices snap to 1/256 pixel and
    the edge tests are exact integer arithmetic, so a centre exactly on an
    edge belongs to the triangle on its right/above: two triangles sharing
    an edge never both cover it nor both miss it, and an axis-aligned
    rectangle covers [x0, x1) x [y0, y1) like GL."""
    # units of 1/(2*SUBPIXEL) pixel: vertices even, pixel centres odd*SUBPIXEL
    pts = [(int(round(x * SUBPIXEL)) * 2, int(round(y * SUBPIXEL)) * 2) for x, y in (p0, p1, p2)]
    a0, a1, a2 = pts
    area = (a1[0] - a0[0]) * (a2[1] - a0[1]) - (a2[0] - a0[0]) * (a1[1] - a0[1])
    if area == 0:
        return []
    if area < 0:
        a1, a2 = a2, a1
    edges = ((a0, a1), (a1, a2), (a2, a0))
    ys = [p[1] for p in pts]
    unit = 2 * SUBPIXEL
    first_row = max(0, min(ys) // unit - 1)
    end_row = min(height, max(ys) // unit + 2)
    spans = []
    for py in range(first_row, end_row):
        yc = (2 * py + 1) * SUBPIXEL
        first, end = 0, width
        for (ax, ay), (bx, by) in edges:
            # inside when (bx-ax)*(yc-ay) - b*(x-ax) >= 0 (> 0 on right edges)
            b = by - ay
            a = (bx - ax) * (yc - ay) + b * ax
            if b == 0:
                # horizontal: a bottom edge (going +x) keeps its centres
                if a < 0 or (a == 0 and bx < ax):
                    end = first
                continue
            # x = k * SUBPIXEL with k = 2 px + 1
            d = SUBPIXEL * abs(b)
            if b > 0:     # right edge, open: k * d < a
                kmax = (a - 1) // d
                end = min(end, (kmax - 1) // 2 + 1)
            else:         # left edge, closed: a + k * d >= 0
                kmin = -(a // d)
                first = max(first, -((1 - kmin) // 2))
        if first < end:
            spans.append((py, first, end))
    return spans


def affine_fit(points, values):
    """The affine function a + b x + c y through three (point, value) pairs,
    evaluated at the window corners; values are per-component lists."""
    (x0, y0), (x1, y1), (x2, y2) = points
    det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)

    def fit(f0, f1, f2):
        b = ((f1 - f0) * (y2 - y0) - (f2 - f0) * (y1 - y0)) / det
        c = ((x1 - x0) * (f2 - f0) - (x2 - x0) * (f1 - f0)) / det
        return lambda x, y: f0 + b * (x - x0) + c * (y - y0)
    return [fit(*comps) for comps in zip(*values)]
