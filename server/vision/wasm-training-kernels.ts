/**
 * Training convolutions on the wasm backend of TF.js 4.22: it lacks the Conv2DBackpropFilter kernel, and
 * its Conv2DBackpropInput is a plain loop ~10× slower than its forward Conv2D (XNNPACK). Both gradients
 * are written here as forward convolutions, so they run on the fast kernel:
 * - dW: the input, batch and channels swapped, convolved with dY as the filter (dilated by the stride);
 * - dX: dY, spread out by the stride and padded, convolved with the filter turned 180° (in/out swapped).
 * Training only; inference never needs them.
 */
import * as tf from '@tensorflow/tfjs';

type Padding = 'valid' | 'same' | number;

interface BackpropFilterAttrs {
  strides: number | [number, number];
  pad: Padding;
  dataFormat: 'NHWC' | 'NCHW';
  dilations?: number | [number, number];
  filterShape: [number, number, number, number];
}

interface BackpropInputAttrs {
  strides: number | [number, number];
  pad: Padding;
  dataFormat: 'NHWC' | 'NCHW';
  inputShape: [number, number, number, number];
}

function pair(v: number | [number, number] | undefined, fallback: number): [number, number] {
  if (v === undefined) return [fallback, fallback];
  return typeof v === 'number' ? [v, v] : v;
}

function checkLayout(kernel: string, dataFormat: string | undefined, pad: unknown): void {
  if (dataFormat !== undefined && dataFormat !== 'NHWC') throw new Error(`${kernel}: only NHWC`);
  if (pad !== 'same' && pad !== 'valid' && typeof pad !== 'number') throw new Error(`${kernel}: padding ${JSON.stringify(pad)} is not supported`);
}

/** Top and left padding of the forward convolution (TF's rule for 'same': the odd pixel goes bottom/right). */
function leadingPad(pad: Padding, inH: number, inW: number, outH: number, outW: number, kh: number, kw: number, sh: number, sw: number): [number, number] {
  if (pad === 'same') return [Math.floor(Math.max((outH - 1) * sh + kh - inH, 0) / 2), Math.floor(Math.max((outW - 1) * sw + kw - inW, 0) / 2)];
  if (typeof pad === 'number') return [pad, pad];
  return [0, 0];
}

/** Pads (positive) or crops (negative) rows and columns of an NHWC tensor. */
function padOrCrop(x: tf.Tensor4D, top: number, bottom: number, left: number, right: number): tf.Tensor4D {
  const [n, h, w, c] = x.shape;
  const cropped = top < 0 || bottom < 0 || left < 0 || right < 0 ? tf.slice(x, [0, Math.max(0, -top), Math.max(0, -left), 0], [n, h - Math.max(0, -top) - Math.max(0, -bottom), w - Math.max(0, -left) - Math.max(0, -right), c]) : x;
  const p = [Math.max(0, top), Math.max(0, bottom), Math.max(0, left), Math.max(0, right)];
  return p.some((v) => v > 0) ? tf.pad(cropped, [[0, 0], [p[0], p[1]], [p[2], p[3]], [0, 0]]) : cropped;
}

export function conv2dBackpropFilterByConv(x: tf.Tensor4D, dy: tf.Tensor4D, attrs: BackpropFilterAttrs): tf.Tensor4D {
  checkLayout('Conv2DBackpropFilter', attrs.dataFormat, attrs.pad);
  const [kh, kw] = attrs.filterShape;
  const [sh, sw] = pair(attrs.strides, 1);
  const [dh, dw] = pair(attrs.dilations, 1);
  if (dh !== 1 || dw !== 1) throw new Error('Conv2DBackpropFilter: dilation > 1 is not supported');
  const [, inH, inW] = x.shape;
  const [, outH, outW] = dy.shape;
  return tf.tidy(() => {
    const [top, left] = leadingPad(attrs.pad, inH, inW, outH, outW, kh, kw, sh, sw);
    // exactly the rows and columns the forward convolution read
    const needH = (outH - 1) * sh + kh;
    const needW = (outW - 1) * sw + kw;
    const xp = padOrCrop(x, top, needH - inH - top, left, needW - inW - left);
    // dW[i,j,c,o] = Σ_{n,h,w} xp[n, i + s·h, j + s·w, c] · dy[n,h,w,o]: a 'valid' convolution over
    // [c, H, W, n] with the filter [h, w, n, o], dilated by the stride
    const r = tf.conv2d(xp.transpose([3, 1, 2, 0]) as tf.Tensor4D, dy.transpose([1, 2, 0, 3]) as tf.Tensor4D, 1, 'valid', 'NHWC', [sh, sw]);
    return r.transpose([1, 2, 0, 3]) as tf.Tensor4D;
  });
}

/** Inserts s−1 zero rows/columns between the rows/columns of dY. */
function spread(dy: tf.Tensor4D, sh: number, sw: number): tf.Tensor4D {
  if (sh === 1 && sw === 1) return dy;
  const [n, h, w, c] = dy.shape;
  const r = tf.pad(dy.reshape([n, h, 1, w, 1, c]), [[0, 0], [0, 0], [0, sh - 1], [0, 0], [0, sw - 1], [0, 0]]).reshape([n, h * sh, w * sw, c]) as tf.Tensor4D;
  return tf.slice(r, [0, 0, 0, 0], [n, (h - 1) * sh + 1, (w - 1) * sw + 1, c]);
}

export function conv2dBackpropInputByConv(dy: tf.Tensor4D, filter: tf.Tensor4D, attrs: BackpropInputAttrs): tf.Tensor4D {
  checkLayout('Conv2DBackpropInput', attrs.dataFormat, attrs.pad);
  const [kh, kw] = filter.shape;
  const [sh, sw] = pair(attrs.strides, 1);
  const [, inH, inW] = attrs.inputShape;
  const [, outH, outW] = dy.shape;
  return tf.tidy(() => {
    const [top, left] = leadingPad(attrs.pad, inH, inW, outH, outW, kh, kw, sh, sw);
    // dX[y] = Σ_k spread(dY)[y + top − k] · W[k]: a correlation of the padded, spread dY with W turned 180°
    const d = spread(dy, sh, sw);
    const padTop = kh - 1 - top;
    const padLeft = kw - 1 - left;
    const dp = padOrCrop(d, padTop, inH + kh - 1 - d.shape[1] - padTop, padLeft, inW + kw - 1 - d.shape[2] - padLeft);
    const turned = tf.reverse(filter, [0, 1]).transpose([0, 1, 3, 2]) as tf.Tensor4D;
    return tf.conv2d(dp, turned, 1, 'valid');
  });
}

let registered = false;

type KernelBackend = { readSync(id: unknown): Float32Array; makeOutput(shape: number[], dtype: string): tf.TensorInfo; typedArrayFromHeap(t: tf.TensorInfo): Float32Array };

/** Copies of the engine's inputs, so that nothing here can release the engine's own tensors. */
function copy(backend: KernelBackend, t: tf.TensorInfo): tf.Tensor4D {
  return tf.tensor4d(backend.readSync(t.dataId), t.shape as [number, number, number, number]);
}

function output(backend: KernelBackend, out: tf.Tensor): tf.TensorInfo {
  const info = backend.makeOutput(out.shape, 'float32');
  backend.typedArrayFromHeap(info).set(out.dataSync() as Float32Array);
  return info;
}

/** Registers `kernelName` on wasm as `compute` over copies of its two inputs. */
function registerTwoInputKernel(kernelName: string, names: [string, string], compute: (a: tf.Tensor4D, b: tf.Tensor4D, attrs: unknown) => tf.Tensor4D): void {
  if (tf.getKernel(kernelName, 'wasm')) tf.unregisterKernel(kernelName, 'wasm');
  tf.registerKernel({
    kernelName,
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const b = backend as unknown as KernelBackend;
      const a = copy(b, inputs[names[0]] as tf.TensorInfo);
      const c = copy(b, inputs[names[1]] as tf.TensorInfo);
      const out = compute(a, c, attrs);
      const info = output(b, out);
      tf.dispose([a, c, out]);
      return info;
    },
  });
}

/** Register the two gradient kernels on the wasm backend (idempotent). */
export function registerWasmTrainingKernels(): void {
  if (registered) return;
  registerTwoInputKernel('Conv2DBackpropFilter', ['x', 'dy'], (x, dy, attrs) => conv2dBackpropFilterByConv(x, dy, attrs as BackpropFilterAttrs));
  registerTwoInputKernel('Conv2DBackpropInput', ['dy', 'filter'], (dy, filter, attrs) => conv2dBackpropInputByConv(dy, filter, attrs as BackpropInputAttrs));
  registered = true;
}
