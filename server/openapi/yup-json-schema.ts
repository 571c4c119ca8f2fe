import type * as yup from 'yup';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses) object. */
export type JsonSchema = { [key: string]: unknown };

type Description = yup.SchemaDescription | yup.SchemaInnerTypeDescription | yup.SchemaObjectDescription | yup.SchemaLazyDescription | yup.SchemaRefDescription;

interface Full {
  type: string;
  optional?: boolean;
  nullable?: boolean;
  oneOf?: unknown[];
  tests?: { name?: string; params?: Record<string, unknown> | undefined }[];
  fields?: Record<string, Description>;
  innerType?: Description | Description[];
  meta?: { description?: string } | undefined;
  label?: string | undefined;
}

const param = (tests: Full['tests'], name: string, key: string): unknown => tests?.find((t) => t.name === name)?.params?.[key];

/**
 * The JSON Schema of a yup schema, from yup's own `describe()`: types, required fields, nullability,
 * allowed values (`oneOf`), string and number bounds, integers, arrays and tuples, objects with
 * `noUnknown`. Custom tests (cross-field rules, `test(...)`) cannot be expressed: the director checks
 * them and answers 400 with the message. Lazy schemas are described as any value.
 */
export function jsonSchemaOf(schema: yup.AnySchema | yup.Lazy<unknown>): JsonSchema {
  return convert(schema.describe() as Description);
}

function convert(d: Description): JsonSchema {
  const f = d as Full;
  const out: JsonSchema = {};
  const tests = f.tests ?? [];
  switch (f.type) {
    case 'string': {
      out.type = 'string';
      const min = param(tests, 'min', 'min') ?? param(tests, 'length', 'length');
      const max = param(tests, 'max', 'max') ?? param(tests, 'length', 'length');
      if (typeof min === 'number') out.minLength = min;
      if (typeof max === 'number') out.maxLength = max;
      if (tests.some((t) => t.name === 'email')) out.format = 'email';
      if (tests.some((t) => t.name === 'url')) out.format = 'uri';
      const re = param(tests, 'matches', 'regex');
      if (re instanceof RegExp) out.pattern = re.source;
      break;
    }
    case 'number': {
      out.type = tests.some((t) => t.name === 'integer') ? 'integer' : 'number';
      const min = param(tests, 'min', 'min');
      const max = param(tests, 'max', 'max');
      const more = param(tests, 'min', 'more') ?? param(tests, 'positive', 'more');
      const less = param(tests, 'max', 'less') ?? param(tests, 'negative', 'less');
      if (typeof min === 'number') out.minimum = min;
      if (typeof max === 'number') out.maximum = max;
      if (typeof more === 'number') out.exclusiveMinimum = more;
      if (typeof less === 'number') out.exclusiveMaximum = less;
      break;
    }
    case 'boolean':
      out.type = 'boolean';
      break;
    case 'date':
      out.type = 'string';
      out.format = 'date-time';
      break;
    case 'array': {
      out.type = 'array';
      if (f.innerType && !Array.isArray(f.innerType)) out.items = convert(f.innerType);
      const min = param(tests, 'min', 'min') ?? param(tests, 'length', 'length');
      const max = param(tests, 'max', 'max') ?? param(tests, 'length', 'length');
      if (typeof min === 'number') out.minItems = min;
      if (typeof max === 'number') out.maxItems = max;
      break;
    }
    case 'tuple': {
      const items = Array.isArray(f.innerType) ? f.innerType.map(convert) : [];
      Object.assign(out, { type: 'array', prefixItems: items, minItems: items.length, maxItems: items.length });
      break;
    }
    case 'object': {
      out.type = 'object';
      const fields = f.fields ?? {};
      out.properties = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, convert(v)]));
      const required = Object.entries(fields)
        .filter(([, v]) => (v as Full).optional === false)
        .map(([k]) => k);
      if (required.length) out.required = required;
      if (tests.some((t) => t.name === 'noUnknown')) out.additionalProperties = false;
      break;
    }
    default:
      // mixed, lazy, ref: any value (oneOf below may still restrict it).
      break;
  }
  const allowed = (f.oneOf ?? []).filter((v) => v !== undefined);
  if (allowed.length) out.enum = f.nullable && !allowed.includes(null) ? [...allowed, null] : allowed;
  if (f.nullable && typeof out.type === 'string') out.type = [out.type, 'null'];
  const description = f.meta?.description ?? f.label;
  if (description) out.description = description;
  return out;
}
