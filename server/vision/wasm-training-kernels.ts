/**
 * The wasm backend of TF.js 4.22 lacks the Conv2DBackpropFilter kernel, so convolution layers cannot be
 * trained on it. This registers one built from kernels it does have (pad, strided slice, matMul):
 * dW = im2col(X)^T · dY as one matrix product. Training only.
 */
import * as tf from '@tensorflow/tfjs';

interface BackpropFilterAttrs {
  strides: number | [number, number];
  pad: 'valid' | 'same' | number;
  dataFormat: 'NHWC' | 'NCHW';
  dilations?: number | [number, number];
  filterShape: [number, number, number, number];
}

function pair(v: number | [number, number] | undefined, fallback: number): [number, number] {
  if (v === undefined) return [fallback, fallback];
  return typeof v === 'number' ? [v, v] : v;
}

export function conv2dBackpropFilterFromMatMul(x: tf.Tensor4D, dy: tf.Tensor4D, attrs: BackpropFilterAttrs): tf.Tensor4D {
  if (attrs.dataFormat !== undefined && attrs.dataFormat !== 'NHWC') throw new Error('Conv2DBackpropFilter: only NHWC');
  const [kh, kw, ci, co] = attrs.filterShape;
  const [sh, sw] = pair(attrs.strides, 1);
  const [dh, dw] = pair(attrs.dilations, 1);
  if (dh !== 1 || dw !== 1) throw new Error('Conv2DBackpropFilter: dilation > 1 is not supported');
  const [n, inH, inW] = x.shape;
  const [, outH, outW] = dy.shape;
  return tf.tidy(() => {
    let padTop = 0;
    let padLeft = 0;
    if (attrs.pad === 'same') {
      const padH = Math.max((outH - 1) * sh + kh - inH, 0);
      const padW = Math.max((outW - 1) * sw + kw - inW, 0);
      padTop = Math.floor(padH / 2);
      padLeft = Math.floor(padW / 2);
    } else if (typeof attrs.pad === 'number') {
      padTop = attrs.pad;
      padLeft = attrs.pad;
    }
    const needH = (outH - 1) * sh + kh;
    const needW = (outW - 1) * sw + kw;
    const padBottom = Math.max(0, needH - inH - padTop);
    const padRight = Math.max(0, needW - inW - padLeft);
    const xp = padTop || padLeft || padBottom || padRight ? tf.pad(x, [[0, 0], [padTop, padBottom], [padLeft, padRight], [0, 0]]) : x;
    const g = dy.reshape([n * outH * outW, co]);
    const taps: tf.Tensor4D[] = [];
    for (let i = 0; i < kh; i++) {
      for (let j = 0; j < kw; j++) {
        taps.push(tf.stridedSlice(xp, [0, i, j, 0], [n, i + (outH - 1) * sh + 1, j + (outW - 1) * sw + 1, ci], [1, sh, sw, 1]) as tf.Tensor4D);
      }
    }
    // im2col: one [rows, kh*kw*ci] matrix, then a single product with dY
    const cols = (taps.length === 1 ? taps[0] : tf.concat(taps, 3)).reshape([n * outH * outW, kh * kw * ci]);
    return tf.matMul(cols, g, true, false).reshape([kh, kw, ci, co]) as tf.Tensor4D;
  });
}

let registered = false;

/** Register the missing gradient kernel(s) on the wasm backend (idempotent). */
export function registerWasmTrainingKernels(): void {
  if (registered || tf.getKernel('Conv2DBackpropFilter', 'wasm')) return;
  tf.registerKernel({
    kernelName: 'Conv2DBackpropFilter',
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const { x, dy } = inputs as unknown as { x: tf.Tensor4D; dy: tf.Tensor4D };
      // copies, so that nothing here can release the engine's own tensors
      const b = backend as unknown as { readSync(id: unknown): Float32Array };
      const xt = tf.tensor4d(b.readSync(x.dataId), x.shape as [number, number, number, number]);
      const dyt = tf.tensor4d(b.readSync(dy.dataId), dy.shape as [number, number, number, number]);
      const out = conv2dBackpropFilterFromMatMul(xt, dyt, attrs as unknown as BackpropFilterAttrs);
      const values = out.dataSync() as Float32Array;
      const shape = out.shape;
      tf.dispose([xt, dyt, out]);
      return makeOutput(backend, shape, values);
    },
  });
  registered = true;
}

function makeOutput(backend: unknown, shape: number[], values: Float32Array): tf.TensorInfo {
  const b = backend as { makeOutput(shape: number[], dtype: string): tf.TensorInfo; typedArrayFromHeap(t: tf.TensorInfo): Float32Array };
  const info = b.makeOutput(shape, 'float32');
  b.typedArrayFromHeap(info).set(values);
  return info;
}
