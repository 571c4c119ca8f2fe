import type { PaneKind, PaneParams, PaneRef } from './types';

interface Compiled {
  kind: PaneKind;
  pattern: string;
  regex: RegExp;
  names: string[];
  staticSegments: number;
}

function compile(kind: PaneKind, pattern: string): Compiled {
  const names: string[] = [];
  const segments = pattern.split('/').filter(Boolean);
  const source = segments
    .map((seg) => {
      if (seg.startsWith(':')) {
        names.push(seg.slice(1));
        return '/([^/]+)';
      }
      return '/' + seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return { kind, pattern, regex: new RegExp(`^${source || '/'}/?$`), names, staticSegments: segments.filter((s) => !s.startsWith(':')).length };
}

/** Matches URLs to pane kinds and builds URLs back from a pane's params. */
export class RouteTable {
  private compiled: Compiled[];

  constructor(kinds: readonly PaneKind[]) {
    // More literal segments first, so /manage_sims/actions/queue wins over /manage_sims/actions/:id.
    this.compiled = kinds.flatMap((k) => k.routes.map((r) => compile(k, r))).sort((a, b) => b.staticSegments - a.staticSegments);
  }

  match(url: string): PaneRef | null {
    const u = new URL(url, 'http://vigil.local');
    const path = u.pathname.replace(/\.html$/, '');
    for (const c of this.compiled) {
      const m = c.regex.exec(path);
      if (!m) continue;
      const params: PaneParams = {};
      c.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1] ?? '')));
      for (const q of c.kind.query ?? []) {
        const all = u.searchParams.getAll(q).concat(u.searchParams.getAll(`${q}[]`));
        if (all.length) params[q] = all.join(',');
      }
      if (c.pattern.includes('cloud_action')) params.cloud = 'true';
      return { kind: c.kind.id, params };
    }
    return null;
  }
}

/** The URL of a pane: its first route with path params filled, query params appended. */
export function paneUrl(kind: PaneKind, params: PaneParams): string {
  const pattern = params.cloud === 'true' ? (kind.routes.find((r) => r.includes('cloud_action')) ?? kind.routes[0]!) : routeForParams(kind, params);
  const used = new Set<string>();
  const path = pattern.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    used.add(name);
    return encodeURIComponent(params[name] ?? '');
  });
  const qs = new URLSearchParams();
  for (const q of kind.query ?? []) {
    const v = params[q];
    if (v !== undefined && v !== '') qs.set(q, v);
  }
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * The route that carries the most of the given path params, among those whose params are all given
 * (e.g. '/manage_sims/action/:vid' once a vid is selected, '/manage_sims/actions' before); the first
 * route when none fits. Cloud-only routes are left to the `cloud` param.
 */
function routeForParams(kind: PaneKind, params: PaneParams): string {
  const names = (r: string) => r.split('/').filter((s) => s.startsWith(':')).length;
  const usable = kind.routes.filter((r) => !r.includes('cloud_action') && r.split('/').every((s) => !s.startsWith(':') || !!params[s.slice(1)]));
  return [...usable].sort((a, b) => names(b) - names(a))[0] ?? kind.routes[0]!;
}

export function pathParamNames(kind: PaneKind): string[] {
  return [...new Set(kind.routes.flatMap((r) => r.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1))))];
}

/** Stable key of a pane instance: kind plus its identifying params ('job:812', 'jobs'). */
export function paneKey(kind: PaneKind, params: PaneParams): string {
  const ids = kind.identity ?? pathParamNames(kind);
  const parts = ids.map((n) => params[n] ?? '').filter(Boolean);
  return parts.length ? `${kind.id}:${parts.join(':')}` : kind.id;
}

export function paneTitle(kind: PaneKind, params: PaneParams): string {
  return kind.title.replace(/\{(\w+)\}/g, (_m, n: string) => params[n] ?? '');
}
