import * as yup from 'yup';

/** An error with an HTTP status and a message the client may show. */
export class HttpError extends Error {
  constructor(
    public statusCode: number,
    message: string,
    public body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, body?: Record<string, unknown>) => new HttpError(400, message, body);
export const unauthorized = (message = 'You need to sign in before continuing.') => new HttpError(401, message);
export const forbidden = (message = 'You are not allowed to do this.') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);

/** Validates input with a yup schema; answers 400 with every message (and per-field errors) when invalid. */
export function validate<S extends yup.AnySchema>(schema: S, input: unknown): yup.InferType<S> {
  if (input === undefined || input === null || (typeof input !== 'object' && schema.type === 'object')) {
    throw badRequest('The request body is missing or is not an object.');
  }
  try {
    return schema.validateSync(input, { abortEarly: false, stripUnknown: false });
  } catch (e) {
    if (e instanceof yup.ValidationError) {
      const errors: Record<string, string[]> = {};
      for (const inner of e.inner.length ? e.inner : [e]) {
        const key = inner.path || 'base';
        (errors[key] ??= []).push(inner.message);
      }
      throw badRequest(e.errors.join(' '), { errors });
    }
    throw e;
  }
}
