/** The 400 a failed Action save answers: the spec's flash text and the errors under the spec's keys. */
import { HttpError } from '../http-errors';

export type Errors = Record<string, string[]>;

export class ActionValidationError extends HttpError {
  constructor(message: string, errors: Errors) {
    super(400, message, { errors });
  }
}

/** Adds one message under a key (once). */
export function addError(errors: Errors, key: string, message: string): void {
  const list = (errors[key] ??= []);
  if (!list.includes(message)) list.push(message);
}
