/**
 * Generates server/openapi/answers.json: the JSON Schema of the successful answer of every director
 * call the workbench makes through its typed client (`http.get<JobListAnswer>('/jobs/list_page_data.json')`,
 * `http.post<T>`, ..., `postWithUploadProgress<T>`), from the TypeScript types it names (mostly the
 * contract types in src/api/contracts). Each call's path (a string or a template literal, `${...}`
 * standing for a path parameter) is matched to a registered route of server/openapi/summaries.ts.
 * The OpenAPI document (server/openapi/document.ts) describes those answers with these schemas, and
 * tests/server/openapi.test.ts validates real answers against them.
 *
 *   npm run openapi:answers            writes the file
 *   npm run openapi:answers -- --check fails when the file is not what the types give (npm run lint)
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { SUMMARIES } from '../server/openapi/summaries';
import { answersJson } from '../server/openapi/content';

type JsonSchema = { [key: string]: unknown };

const root = path.resolve(import.meta.dirname, '..');
const OUT = path.join(root, 'server/openapi/answers.json');
const CLIENT_CALLS = /^(get|post|put|patch|delete)$/;
const DECLARED = path.join(root, 'server/openapi/declared-answers.ts');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fakes' ? [] : sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Registered routes as `METHOD /path` with a matcher of concrete paths. */
function routes(): { key: string; method: string; re: RegExp; params: number }[] {
  return SUMMARIES.split('\n').flatMap((line) => {
    const m = /^(\w+) (\S+) \|/.exec(line.trim());
    if (!m) return [];
    const [, method, url] = m as unknown as [string, string, string];
    const params = (url.match(/:[A-Za-z_]/g) ?? []).length;
    const re = new RegExp(`^${escape(url).replace(/:[A-Za-z_][A-Za-z0-9_]*/g, '[^/]+')}$`);
    return [{ key: `${method} ${url}`, method, re, params }];
  });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A call's path with each `${...}` as `1` (a path parameter) and as a pattern, or undefined when not written out. */
function literalPath(arg: ts.Expression, checker: ts.TypeChecker): { sample: string; re: RegExp } | undefined {
  if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return { sample: arg.text, re: new RegExp(`^${escape(arg.text)}$`) };
  // A constant naming the path (`http.get<PageFilterData>(FILTER_SRC)`).
  if (ts.isIdentifier(arg) || ts.isPropertyAccessExpression(arg)) {
    const t = checker.getTypeAtLocation(arg);
    if (t.flags & ts.TypeFlags.StringLiteral) return { sample: (t as ts.StringLiteralType).value, re: new RegExp(`^${escape((t as ts.StringLiteralType).value)}$`) };
  }
  if (!ts.isTemplateExpression(arg)) return undefined;
  const sample = arg.head.text + arg.templateSpans.map((s) => `1${s.literal.text}`).join('');
  const re = new RegExp(`^${escape(arg.head.text)}${arg.templateSpans.map((s) => `[^/]+${escape(s.literal.text)}`).join('')}$`);
  return { sample, re };
}

/**
 * The routes a call's path names: the route matching it with the fewest path parameters
 * (`/monitors/options.json` before `/monitors/:id.json`), else every route a `${...}` segment can
 * stand for (`/run/${kind}/${id}.json`: the actions, sequences and evaluations runs).
 */
function routesOf(table: ReturnType<typeof routes>, method: string, url: { sample: string; re: RegExp }) {
  const direct = table.filter((r) => r.method === method && r.re.test(url.sample)).sort((a, b) => a.params - b.params)[0];
  if (direct) return [direct];
  return table.filter((r) => r.method === method && url.re.test(r.key.slice(method.length + 1).replace(/:[A-Za-z_][A-Za-z0-9_]*/g, '1')));
}

class Converter {
  readonly defs: Record<string, JsonSchema> = {};
  private readonly names = new Map<ts.Type, string>();
  constructor(private readonly checker: ts.TypeChecker) {}

  /** A named type (interface or alias of an object type, without type arguments) goes to the definitions once. */
  private nameOf(t: ts.Type): string | undefined {
    const alias = t.aliasSymbol && !t.aliasTypeArguments?.length ? t.aliasSymbol : undefined;
    const sym = alias ?? (t.symbol && t.symbol.flags & ts.SymbolFlags.Interface && !(t as ts.TypeReference).typeArguments?.length ? t.symbol : undefined);
    if (!sym || !(t.flags & ts.TypeFlags.Object || t.flags & ts.TypeFlags.Intersection)) return undefined;
    return sym.getName();
  }

  convert(t: ts.Type): JsonSchema {
    const name = this.nameOf(t);
    if (!name) return this.inline(t);
    let key = this.names.get(t);
    if (!key) {
      key = name;
      for (let i = 2; this.defs[key] || key === 'ErrorAnswer'; i++) key = `${name}${i}`;
      this.names.set(t, key);
      this.defs[key] = {};
      this.defs[key] = this.inline(t);
    }
    return { $ref: `#/components/schemas/${key}` };
  }

  private inline(t: ts.Type): JsonSchema {
    const c = this.checker;
    const f = t.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (f & ts.TypeFlags.StringLiteral) return { const: (t as ts.StringLiteralType).value };
    if (f & ts.TypeFlags.NumberLiteral) return { const: (t as ts.NumberLiteralType).value };
    if (f & ts.TypeFlags.BooleanLiteral) return { const: (t as unknown as { intrinsicName: string }).intrinsicName === 'true' };
    if (f & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral)) return { type: 'string' };
    if (f & ts.TypeFlags.Number) return { type: 'number' };
    if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (f & ts.TypeFlags.Null) return { type: 'null' };
    if (f & ts.TypeFlags.Union) return this.union((t as ts.UnionType).types);
    if (c.isTupleType(t)) {
      const items = c.getTypeArguments(t as ts.TypeReference).map((a) => this.convert(a));
      return { type: 'array', prefixItems: items, maxItems: items.length };
    }
    if (c.isArrayType(t)) return { type: 'array', items: this.convert(c.getTypeArguments(t as ts.TypeReference)[0]!) };
    if (t.symbol?.getName() === 'Date') return { type: 'string', format: 'date-time' };
    if (f & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) return this.object(t);
    return {};
  }

  private union(types: ts.Type[]): JsonSchema {
    const c = this.checker;
    const members = types.filter((m) => !(m.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    const bools = members.filter((m) => m.flags & ts.TypeFlags.BooleanLiteral);
    const rest = bools.length === 2 ? members.filter((m) => !(m.flags & ts.TypeFlags.BooleanLiteral)) : members;
    const literal = (m: ts.Type) => m.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral | ts.TypeFlags.Null);
    if (bools.length !== 2 && rest.length && rest.every(literal)) {
      return { enum: rest.map((m) => (m.flags & ts.TypeFlags.Null ? null : (m as ts.LiteralType).value)) };
    }
    const out = rest.map((m) => this.convert(m));
    if (bools.length === 2) out.push({ type: 'boolean' });
    // Merge simple `T | null` into one schema so clients see the type.
    if (out.length === 2 && out.some((s) => s.type === 'null')) {
      const other = out.find((s) => s.type !== 'null')!;
      if (typeof other.type === 'string' && Object.keys(other).every((k) => k === 'type' || k === 'items' || k === 'format')) return { ...other, type: [other.type, 'null'] };
    }
    void c;
    return out.length === 1 ? out[0]! : { anyOf: out };
  }

  private object(t: ts.Type): JsonSchema {
    const c = this.checker;
    if (c.getSignaturesOfType(t, ts.SignatureKind.Call).length) return {};
    const props = c.getPropertiesOfType(t);
    const out: JsonSchema = { type: 'object' };
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const p of props) {
      const pt = c.getTypeOfSymbol(p);
      if (c.getSignaturesOfType(pt, ts.SignatureKind.Call).length) continue;
      properties[p.getName()] = this.convert(pt);
      const optional = p.flags & ts.SymbolFlags.Optional || (pt.flags & ts.TypeFlags.Union && (pt as ts.UnionType).types.some((m) => m.flags & ts.TypeFlags.Undefined));
      if (!optional) required.push(p.getName());
    }
    if (props.length) out.properties = properties;
    if (required.length) out.required = required;
    const index = c.getIndexTypeOfType(t, ts.IndexKind.String) ?? c.getIndexTypeOfType(t, ts.IndexKind.Number);
    if (index) out.additionalProperties = this.convert(index);
    return out;
  }
}

/** A route's path: a string, or a template of constant strings (`${ACTOR_API}/register`). */
function routePath(checker: ts.TypeChecker, arg: ts.Expression): string | undefined {
  if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return arg.text;
  if (!ts.isTemplateExpression(arg)) return undefined;
  let out = arg.head.text;
  for (const span of arg.templateSpans) {
    const t = checker.getTypeAtLocation(span.expression);
    if (!(t.flags & ts.TypeFlags.StringLiteral)) return undefined;
    out += (t as ts.StringLiteralType).value + span.literal.text;
  }
  return out;
}

/** A route's handler: a function written in the call, or a constant naming one. */
function handlerOf(checker: ts.TypeChecker, arg: ts.Expression | undefined): ts.ArrowFunction | ts.FunctionExpression | undefined {
  if (!arg) return undefined;
  if (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg)) return arg;
  if (!ts.isIdentifier(arg)) return undefined;
  const decl = checker.getSymbolAtLocation(arg)?.valueDeclaration;
  const init = decl && ts.isVariableDeclaration(decl) ? decl.initializer : undefined;
  return init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) ? init : undefined;
}

/**
 * What a handler answers: its declared answer type (`async (req): Promise<T> =>`), else the type
 * TypeScript gives what it returns; none when it answers through `reply` (files, CSV, HTML) or untyped.
 */
function handlerAnswer(checker: ts.TypeChecker, handler: ts.ArrowFunction | ts.FunctionExpression): ts.Type | undefined {
  const sig = checker.getSignatureFromDeclaration(handler);
  let t = handler.type ? checker.getTypeFromTypeNode(handler.type) : sig ? checker.getReturnTypeOfSignature(sig) : undefined;
  if (t?.symbol?.getName() === 'Promise') t = checker.getTypeArguments(t as ts.TypeReference)[0];
  if (!t || t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Never)) return undefined;
  const names = (t.flags & ts.TypeFlags.Union ? (t as ts.UnionType).types : [t]).map((m) => m.symbol?.getName() ?? m.aliasSymbol?.getName() ?? '');
  if (names.some((n) => /Reply|Buffer|Stream|Readable/.test(n))) return undefined;
  return t;
}

/** The answers' schemas: `METHOD /path` -> schema, and the named definitions they refer to. */
function generateAnswers(): { answers: Record<string, JsonSchema>; schemas: Record<string, JsonSchema>; skipped: string[] } {
  const files = sourceFiles(path.join(root, 'src'));
  // The route modules, and the module augmentations that type `app.db`, `req.session`, ...
  const serverFiles = sourceFiles(path.join(root, 'server')).filter((f) => /routes/.test(f) || /server\/(app|guards)\.ts$/.test(f));
  const program = ts.createProgram([...files, ...serverFiles, DECLARED], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.ReactJSX,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    baseUrl: root,
    paths: { '@/*': ['src/*'] },
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const conv = new Converter(checker);
  const table = routes();
  const found = new Map<string, { type: ts.Type; text: string; where: string }>();
  const skipped: string[] = [];
  const visit = (sf: ts.SourceFile, node: ts.Node) => {
    if (ts.isCallExpression(node) && node.typeArguments?.length === 1 && node.arguments.length) {
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'http' ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
      // `request<T>('GET', path)` names its method first.
      const [a0, a1] = node.arguments;
      const viaRequest = name === 'request' && a0 && ts.isStringLiteral(a0) && CLIENT_CALLS.test(a0.text.toLowerCase()) && a1 ? a0.text.toUpperCase() : '';
      const method = viaRequest || (CLIENT_CALLS.test(name) ? name.toUpperCase() : name === 'postWithUploadProgress' ? 'POST' : '');
      const url = method ? literalPath(viaRequest ? a1! : a0!, checker) : undefined;
      if (method && url !== undefined) {
        const where = `${path.relative(root, sf.fileName)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        const matched = routesOf(table, method, url);
        if (!matched.length) skipped.push(`${where}: ${method} ${url.sample} matches no registered route`);
        const typeNode = node.typeArguments[0]!;
        const text = typeNode.getText(sf);
        for (const route of matched) {
          const prior = found.get(route.key);
          if (prior && prior.text !== text) skipped.push(`${where}: ${route.key} is read as ${text} here and as ${prior.text} at ${prior.where}; the first is kept`);
          else if (!prior && text !== 'unknown' && text !== 'Blob' && text !== 'string') found.set(route.key, { type: checker.getTypeFromTypeNode(typeNode), text, where });
        }
      }
    }
    ts.forEachChild(node, (n) => visit(sf, n));
  };
  for (const sf of program.getSourceFiles()) if (files.includes(path.normalize(sf.fileName))) visit(sf, sf);
  // Calls the workbench does not make with a typed client call (the actor API, integrations, exports,
  // the lab, ...): the answer type the route's handler declares (`async (req): Promise<T> => ...`).
  const registered = new Set(table.map((r) => r.key));
  const visitRoutes = (sf: ts.SourceFile, node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression) && node.expression.expression.text === 'app') {
      const method = node.expression.name.text.toUpperCase();
      const [first] = node.arguments;
      const url = first ? routePath(checker, first) : undefined;
      const handler = handlerOf(checker, node.arguments[node.arguments.length - 1]);
      if (CLIENT_CALLS.test(method.toLowerCase()) && url && handler) {
        const key = `${method} ${url}`;
        const answer = registered.has(key) && !found.has(key) ? handlerAnswer(checker, handler) : undefined;
        if (answer) {
          const where = `${path.relative(root, sf.fileName)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
          found.set(key, { type: answer, text: checker.typeToString(answer), where });
        }
      }
    }
    ts.forEachChild(node, (n) => visitRoutes(sf, n));
  };
  for (const sf of program.getSourceFiles()) if (serverFiles.includes(path.normalize(sf.fileName))) visitRoutes(sf, sf);
  // Calls whose handlers send JSON through `reply` (pre-serialized): the types declared for them.
  const declared = program.getSourceFile(DECLARED);
  const declaredAnswers = declared?.statements.find((st): st is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(st) && st.name.text === 'DeclaredAnswers');
  if (!declaredAnswers) throw new Error(`${path.relative(root, DECLARED)} has no DeclaredAnswers interface`);
  for (const m of declaredAnswers.members) {
    if (!ts.isPropertySignature(m) || !m.type || !ts.isStringLiteral(m.name)) continue;
    const key = m.name.text;
    if (!registered.has(key)) skipped.push(`${path.relative(root, DECLARED)}: ${key} is not a registered route`);
    else if (found.has(key)) skipped.push(`${path.relative(root, DECLARED)}: ${key} has an answer type already (${found.get(key)!.where})`);
    else found.set(key, { type: checker.getTypeFromTypeNode(m.type), text: m.type.getText(declared), where: path.relative(root, DECLARED) });
  }
  for (const r of table) {
    if (!found.has(r.key) && answersJson(r.key.slice(r.method.length + 1))) skipped.push(`${r.key} has no answer type (no typed client call, no typed handler answer, not in ${path.relative(root, DECLARED)})`);
  }
  const answers: Record<string, JsonSchema> = {};
  for (const key of [...found.keys()].sort()) answers[key] = conv.convert(found.get(key)!.type);
  const schemas = Object.fromEntries(Object.keys(conv.defs).sort().map((k) => [k, conv.defs[k]!]));
  return { answers, schemas, skipped };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { answers, schemas, skipped } = generateAnswers();
  for (const s of skipped) console.log(`note: ${s}`);
  const untyped = skipped.filter((s) => s.includes(' has no answer type '));
  if (untyped.length) {
    console.error(`${untyped.length} JSON call(s) without an answer type: type the handler's answer (async (req): Promise<T> =>), or declare it in server/openapi/declared-answers.ts`);
    process.exit(1);
  }
  const text = `${JSON.stringify({ answers, schemas }, null, 1)}\n`;
  if (process.argv.includes('--check')) {
    const now = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
    if (now !== text) {
      console.error(`${path.relative(root, OUT)} is not what the client's answer types give: run npm run openapi:answers`);
      process.exit(1);
    }
    console.log(`${path.relative(root, OUT)} is up to date (${Object.keys(answers).length} answers)`);
  } else {
    fs.writeFileSync(OUT, text);
    console.log(`wrote ${path.relative(root, OUT)}: ${Object.keys(answers).length} answers, ${Object.keys(schemas).length} named schemas`);
  }
}
