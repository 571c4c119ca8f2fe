import { useEffect, useState } from 'react';
import type { PaneProps } from '@/panes/types';
import { Markdown } from '@/ui/markdown';
import { HELP_PAGES, helpPage, slugOf } from './help-pages';

/** The page texts, bundled with the workbench and loaded with the pane. */
const SOURCES = import.meta.glob<string>('./pages/*.md', { query: '?raw', import: 'default' });

type State = { kind: 'loading' } | { kind: 'ready'; text: string } | { kind: 'missing' } | { kind: 'error'; message: string };

/** /help/{file}: one of the product's help pages, rendered safely (no HTML from the text reaches the page). */
export function HelpPane({ params }: PaneProps) {
  const file = params.file ?? '';
  const page = helpPage(file);
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    const load = page ? SOURCES[`./pages/${slugOf(page.file)}.md`] : undefined;
    if (!load) return setState({ kind: 'missing' });
    let live = true;
    setState({ kind: 'loading' });
    load().then(
      (text) => live && setState({ kind: 'ready', text }),
      (e: unknown) => live && setState({ kind: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [page]);

  return (
    <article className="max-w-3xl p-4 text-sm leading-relaxed" aria-label={page ? `Help: ${page.title}` : 'Help'}>
      {state.kind === 'loading' && <p className="text-muted">Loading help…</p>}
      {state.kind === 'error' && <p role="alert">Could not load this help page: {state.message}</p>}
      {state.kind === 'ready' && <Markdown source={state.text} headingOffset={1} />}
      {state.kind === 'missing' && (
        <div>
          <p role="alert">There is no help page named {file}.</p>
          <h2 className="mt-3 mb-1 font-semibold">Help pages</h2>
          <ul className="list-disc pl-5">
            {HELP_PAGES.map((p) => (
              <li key={p.file}>
                <a href={`/help/${p.file}`} className="text-accent hover:underline">
                  {p.title}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
    </article>
  );
}
