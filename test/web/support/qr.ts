/** Reads a QR code back from a screenshot (jsqr on the PNG's pixels, decoded by pngjs): what a phone's camera would open. */
import jsQR from "jsqr";
import { PNG } from "pngjs";

/** The text of the QR code in a PNG image; undefined when none is found. */
export function decodeQrCode(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), image.width, image.height)?.data;
}
