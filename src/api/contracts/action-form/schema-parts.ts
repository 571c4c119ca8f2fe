/** Small yup builders shared by the form's schemas (not part of the contract's public face). */
import * as yup from 'yup';
import { MSG } from './texts';
import type { Limit } from './options';

export const filled = () =>
  yup
    .string()
    .defined(MSG.mustBeFilled)
    .test('filled', MSG.mustBeFilled, (v) => typeof v === 'string' && v.trim() !== '');
export const text = () => yup.string().defined().default('');
export const bool = () => yup.boolean().defined().default(false);
export const oneOf = <T extends string>(values: readonly T[]) =>
  yup
    .string()
    .defined(MSG.mustBeFilled)
    .test('filled', MSG.mustBeFilled, (v) => typeof v === 'string' && v !== '')
    .oneOf([...values], `must be one of ${values.join(', ')}`);
export const num = (limit: Limit, opts: { integer?: boolean } = {}) => {
  let s = yup
    .number()
    .typeError('must be a number')
    .nullable()
    .defined()
    .test('filled', MSG.mustBeFilled, (v) => v !== null && v !== undefined)
    .min(limit.min, `must be at least ${limit.min}`)
    .max(limit.max, `must be at most ${limit.max}`);
  if (opts.integer !== false) s = s.integer('must be a whole number');
  return s;
};
export const id = () => yup.number().typeError('must be a number').integer('must be a whole number').positive('must be a positive id');
export const strictObject = <S extends yup.ObjectShape>(shape: S) => yup.object(shape).noUnknown('has unknown fields: ${unknown}');
