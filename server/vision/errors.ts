/** An image the vision pipeline cannot read: empty, corrupt, unsupported, wrong raw size. */
export class VisionInputError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VisionInputError';
  }
}

/** The shipped model is missing, unreadable or does not match the code's spec. */
export class VisionModelError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VisionModelError';
  }
}
