/** The tray and kept zone the camera reads, as SVG shapes over a camera image. */
import { s } from '../dom.ts';
import type { AreaConfig } from '../types.ts';

/** An area (0..1 of the image) drawn in an SVG whose view box is `width` × `height`. */
export function areaShape(area: AreaConfig, width: number, height: number, attrs: Record<string, string>): SVGElement {
  if ('quad' in area) return s('polygon', { ...attrs, points: area.quad.map(([x, y]) => `${x * width},${y * height}`).join(' ') });
  return s('rect', { ...attrs, x: area.x * width, y: area.y * height, width: area.w * width, height: area.h * height });
}
