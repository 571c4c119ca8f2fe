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

/**
 * The fields of a request body without the form's `authenticity_token`: that one belongs to the CSRF
 * check (already done by the preHandler hook), not to the call's input. Non-objects pass unchanged so
 * `validate` can refuse them.
 */
export function bodyFields(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { authenticity_token: _token, ...fields } = body as Record<string, unknown>;
  return fields;
}

/** Per-field errors for values that are not strings where the (possibly nested) object schema wants a string. */
function stringTypeErrors(schema: yup.AnySchema, input: unknown, prefix: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!(schema instanceof yup.ObjectSchema) || !input || typeof input !== 'object' || Array.isArray(input)) return errors;
  for (const [key, field] of Object.entries(schema.fields as Record<string, yup.AnySchema>)) {
    const value = (input as Record<string, unknown>)[key];
    const path = prefix + key;
    if (value === undefined || value === null) continue;
    if (field.type === 'string' && typeof value !== 'string') errors[path] = [`${path} must be a string`];
    else Object.assign(errors, stringTypeErrors(field, value, `${path}.`));
  }
  return errors;
}

/** Validates input with a yup schema; answers 400 with every message (and per-field errors) when invalid. */
/** `context` reaches the schema's tests as `this.options.context` (e.g. today's date for a first-run rule). */
export function validate<S extends yup.AnySchema>(schema: S, input: unknown, context?: object): yup.InferType<S> {
  if (input === undefined || input === null || (typeof input !== 'object' && schema.type === 'object')) {
    throw badRequest('The request body is missing or is not an object.');
  }
  // yup's string transforms (trim...) throw a TypeError on arrays and objects, which would answer 500.
  if (schema.type === 'string' && typeof input !== 'string') throw badRequest('The value must be text.');
  const typeErrors = stringTypeErrors(schema, input, '');
  if (Object.keys(typeErrors).length) throw badRequest(Object.values(typeErrors).flat().join(' '), { errors: typeErrors });
  try {
    return schema.validateSync(input, { abortEarly: false, stripUnknown: false, ...(context ? { context } : {}) });
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
