/**
 * A tiny Markdown renderer for Action descriptions that builds React elements (never HTML strings),
 * so markup in a description is shown as text and cannot run: headings, paragraphs, bold, italic,
 * inline code, fenced code, lists, block quotes, rules and links (http, https, mailto and same-site only).
 */
import { Fragment, type ReactNode } from 'react';

export type MdBlock =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'quote'; text: string }
  | { kind: 'rule' };

/** Splits Markdown into blocks. */
export function parseBlocks(src: string): MdBlock[] {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const blocks: MdBlock[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) blocks.push({ kind: 'paragraph', text: para.join('\n') });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*```/.test(line)) {
      flush();
      const code: string[] = [];
      i++;
      while (i < lines.length && !/^\s*```/.test(lines[i]!)) code.push(lines[i++]!);
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      flush();
      blocks.push({ kind: 'heading', level: h[1]!.length as 1 | 2 | 3 | 4 | 5 | 6, text: h[2]!.replace(/\s+#+\s*$/, '') });
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      blocks.push({ kind: 'rule' });
      continue;
    }
    const li = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (li) {
      flush();
      const ordered = /\d/.test(li[1]!);
      const items = [li[2]!];
      while (i + 1 < lines.length) {
        const next = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(lines[i + 1]!);
        if (!next || /\d/.test(next[1]!) !== ordered) break;
        items.push(next[2]!);
        i++;
      }
      blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    if (/^\s*>/.test(line)) {
      flush();
      const quote = [line.replace(/^\s*>\s?/, '')];
      while (i + 1 < lines.length && /^\s*>/.test(lines[i + 1]!)) quote.push(lines[++i]!.replace(/^\s*>\s?/, ''));
      blocks.push({ kind: 'quote', text: quote.join('\n') });
      continue;
    }
    if (!line.trim()) flush();
    else para.push(line);
  }
  flush();
  return blocks;
}

/** A link target that is safe to follow, or null. */
export function safeHref(url: string): string | null {
  const u = url.trim();
  if (/^(https?:|mailto:)/i.test(u)) return u;
  if (u.startsWith('/') && !u.startsWith('//')) return u;
  return null;
}

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*|__[^_]+__)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))/;

/** Inline Markdown as React nodes. */
export function renderInline(text: string, keyPrefix = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  let rest = text;
  let n = 0;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push(rest);
      break;
    }
    if (m.index > 0) out.push(rest.slice(0, m.index));
    const token = m[0];
    const key = `${keyPrefix}-${n++}`;
    if (m[1]) out.push(<code key={key} className="rounded bg-raised px-1 font-mono text-[0.9em]">{token.slice(1, -1)}</code>);
    else if (m[2]) out.push(<strong key={key}>{renderInline(token.slice(2, -2), key)}</strong>);
    else if (m[3]) out.push(<em key={key}>{renderInline(token.slice(1, -1), key)}</em>);
    else if (m[4]) {
      const lm = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token)!;
      const href = safeHref(lm[2]!);
      out.push(
        href ? (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer" className="text-accent underline">
            {renderInline(lm[1]!, key)}
          </a>
        ) : (
          <Fragment key={key}>{lm[1]}</Fragment>
        ),
      );
    }
    rest = rest.slice(m.index + token.length);
  }
  return out;
}

const HEADING_CLASS = ['text-lg font-semibold', 'text-base font-semibold', 'text-sm font-semibold', 'text-sm font-semibold', 'text-sm font-medium', 'text-sm font-medium'];

export function Markdown({ source }: { source: string }) {
  const blocks = parseBlocks(source);
  if (!blocks.length) return <p className="text-muted">Nothing to preview.</p>;
  return (
    <div className="flex flex-col gap-2 text-sm leading-relaxed" data-testid="markdown">
      {blocks.map((b, i) => {
        const k = `b${i}`;
        switch (b.kind) {
          case 'heading': {
            const Tag = `h${b.level}` as const;
            return (
              <Tag key={k} className={HEADING_CLASS[b.level - 1]}>
                {renderInline(b.text, k)}
              </Tag>
            );
          }
          case 'paragraph':
            return (
              <p key={k} className="whitespace-pre-wrap">
                {renderInline(b.text, k)}
              </p>
            );
          case 'code':
            return (
              <pre key={k} className="overflow-auto rounded border border-line bg-surface p-2 font-mono text-xs">
                {b.text}
              </pre>
            );
          case 'list': {
            const Tag = b.ordered ? 'ol' : 'ul';
            return (
              <Tag key={k} className={`${b.ordered ? 'list-decimal' : 'list-disc'} pl-5`}>
                {b.items.map((item, j) => (
                  <li key={j}>{renderInline(item, `${k}-${j}`)}</li>
                ))}
              </Tag>
            );
          }
          case 'quote':
            return (
              <blockquote key={k} className="border-l-2 border-line pl-3 text-muted whitespace-pre-wrap">
                {renderInline(b.text, k)}
              </blockquote>
            );
          case 'rule':
            return <hr key={k} className="border-line" />;
        }
      })}
    </div>
  );
}
