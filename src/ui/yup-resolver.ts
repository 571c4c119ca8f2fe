import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import * as yup from 'yup';

/** react-hook-form resolver for a yup schema (the same schemas the director validates with). */
export function yupResolver<T extends FieldValues>(schema: yup.AnySchema): Resolver<T> {
  return async (values) => {
    try {
      const cast = await schema.validate(values, { abortEarly: false, strict: false, stripUnknown: true });
      return { values: cast as T, errors: {} };
    } catch (e) {
      if (!(e instanceof yup.ValidationError)) throw e;
      const errors: Record<string, { type: string; message: string }> = {};
      for (const inner of e.inner.length ? e.inner : [e]) {
        const path = inner.path ?? 'root';
        errors[path] ??= { type: inner.type ?? 'validation', message: inner.message };
      }
      return { values: {}, errors: errors as unknown as FieldErrors<T> };
    }
  };
}
