/**
 * The workbench's one Markdown renderer (Action descriptions in the library, the detail pane and the
 * Action form's preview). It builds React elements only, never HTML strings, so a description
 * cannot inject markup or script: raw HTML in the text is shown as text. Covers what descriptions
 * use: headings, paragraphs, lists, fenced and inline code, bold, italic, links and rules.
 *
 * Links are followed only to http(s) and mailto targets and to same-origin absolute paths (one
 * leading `/`); `//host` and `/\host` (which browsers read as another site) and every other scheme
 * (javascript:, data:, ...) are shown as plain text.
 */
import { Fragment, type ReactNode } from 'react';

const EXTERNAL = /^(https?:\/\/|mailto:)/i;
/** Director documents (e.g. /api/openapi.json): same-origin, but not panes, so they open in a tab of their own. */
const DOCUMENT = /^\/api\//;
/** A same-origin path: one `/`, not followed by another `/` or a backslash. */
const SAME_ORIGIN = /^\/(?![/\\])/;

/** A link target that is safe to follow, or null. */
export function safeHref(href: string): string | null {
  const h = href.trim();
  // Browsers drop tabs and line breaks inside URLs, so '/\t/evil' would become '//evil'.
  if (/[\u0000-\u0020\u007f]/.test(h)) return null;
  return EXTERNAL.test(h) || SAME_ORIGIN.test(h) ? h : null;
}

type Token = { kind: 'text'; text: string } | { kind: 'code'; text: string } | { kind: 'strong' | 'em'; children: Token[] } | { kind: 'link'; text: Token[]; href: string };

const INLINE = /(`+)([\s\S]*?[^`])\1(?!`)|\*\*([\s\S]+?)\*\*|__([\s\S]+?)__|\*([^*\s][^*]*?)\*|_([^_\s][^_]*?)_|\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<(https?:\/\/[^>\s]+)>/;

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let rest = text;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push({ kind: 'text', text: rest });
      break;
    }
    if (m.index > 0) out.push({ kind: 'text', text: rest.slice(0, m.index) });
    if (m[1] !== undefined) out.push({ kind: 'code', text: (m[2] ?? '').trim() });
    else if (m[3] !== undefined || m[4] !== undefined) out.push({ kind: 'strong', children: tokenize(m[3] ?? m[4] ?? '') });
    else if (m[5] !== undefined || m[6] !== undefined) out.push({ kind: 'em', children: tokenize(m[5] ?? m[6] ?? '') });
    else if (m[7] !== undefined) out.push({ kind: 'link', text: tokenize(m[7]), href: m[8] ?? '' });
    else if (m[9] !== undefined) out.push({ kind: 'link', text: [{ kind: 'text', text: m[9] }], href: m[9] });
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

function renderTokens(tokens: Token[], key = ''): ReactNode[] {
  return tokens.map((t, i) => {
    const k = `${key}${i}`;
    switch (t.kind) {
      case 'text':
        return <Fragment key={k}>{t.text}</Fragment>;
      case 'code':
        return (
          <code key={k} className="rounded bg-raised px-1 font-mono text-[0.92em]">
            {t.text}
          </code>
        );
      case 'strong':
        return <strong key={k}>{renderTokens(t.children, `${k}.`)}</strong>;
      case 'em':
        return <em key={k}>{renderTokens(t.children, `${k}.`)}</em>;
      case 'link': {
        const href = safeHref(t.href);
        if (!href) return <Fragment key={k}>{renderTokens(t.text, `${k}.`)}</Fragment>;
        const external = EXTERNAL.test(href) || DOCUMENT.test(href);
        return (
          <a key={k} href={href} className="text-accent underline" {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
            {renderTokens(t.text, `${k}.`)}
          </a>
        );
      }
    }
  });
}

const inline = (text: string, key: string) => renderTokens(tokenize(text), key);

type Block =
  | { kind: 'p'; text: string }
  | { kind: 'h'; level: number; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'ul' | 'ol'; items: string[] }
  | { kind: 'quote'; text: string }
  | { kind: 'hr' };

export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!);
      i++;
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push({ kind: 'h', level: heading[1]!.length, text: heading[2]!.replace(/\s#+\s*$/, '') });
      i++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      blocks.push({ kind: 'hr' });
      i++;
      continue;
    }
    const bullet = /^\s*[-*+]\s+/;
    const ordered = /^\s*\d+[.)]\s+/;
    if (bullet.test(line) || ordered.test(line)) {
      const kind = bullet.test(line) ? 'ul' : 'ol';
      const re = kind === 'ul' ? bullet : ordered;
      const items: string[] = [];
      while (i < lines.length && lines[i]!.trim()) {
        const l = lines[i]!;
        if (re.test(l)) items.push(l.replace(re, ''));
        else if (items.length) items[items.length - 1] += ` ${l.trim()}`;
        i++;
      }
      blocks.push({ kind, items });
      continue;
    }
    if (/^\s*>/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i]!)) body.push(lines[i++]!.replace(/^\s*>\s?/, ''));
      blocks.push({ kind: 'quote', text: body.join(' ') });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !/^(#{1,6}\s|\s*```|\s*~~~|\s*[-*+]\s+|\s*\d+[.)]\s+|\s*>)/.test(lines[i]!)) para.push(lines[i++]!.trim());
    if (!para.length) para.push(lines[i++]!.trim());
    blocks.push({ kind: 'p', text: para.join(' ') });
  }
  return blocks;
}

const HEADING = ['text-base', 'text-sm', 'text-sm', 'text-sm', 'text-sm', 'text-sm'];

interface MarkdownProps {
  source: string;
  className?: string;
  /** How many levels the headings sit below the page's: `#` renders as h{1 + headingOffset}. */
  headingOffset?: number;
  /** Shown when the source has no blocks. */
  empty?: string;
}

export function Markdown({ source, className = '', headingOffset = 2, empty }: MarkdownProps) {
  const blocks = parseBlocks(source);
  if (!blocks.length && empty) return <p className="text-muted">{empty}</p>;
  return (
    <div className={`flex flex-col gap-2 leading-relaxed break-words ${className}`} data-markdown="">
      {blocks.map((b, i) => {
        const k = `b${i}`;
        switch (b.kind) {
          case 'p':
            return <p key={k}>{inline(b.text, `${k}.`)}</p>;
          case 'h': {
            const Tag = `h${Math.min(6, b.level + headingOffset)}` as 'h3';
            return (
              <Tag key={k} className={`${HEADING[b.level - 1] ?? 'text-sm'} font-semibold`}>
                {inline(b.text, `${k}.`)}
              </Tag>
            );
          }
          case 'code':
            return (
              <pre key={k} className="overflow-x-auto rounded bg-raised p-2 font-mono text-2xs">
                {b.text}
              </pre>
            );
          case 'ul':
            return (
              <ul key={k} className="list-disc pl-5">
                {b.items.map((it, j) => (
                  <li key={j}>{inline(it, `${k}.${j}.`)}</li>
                ))}
              </ul>
            );
          case 'ol':
            return (
              <ol key={k} className="list-decimal pl-5">
                {b.items.map((it, j) => (
                  <li key={j}>{inline(it, `${k}.${j}.`)}</li>
                ))}
              </ol>
            );
          case 'quote':
            return (
              <blockquote key={k} className="border-l-2 border-line pl-3 text-muted">
                {inline(b.text, `${k}.`)}
              </blockquote>
            );
          case 'hr':
            return <hr key={k} className="border-line" />;
        }
      })}
    </div>
  );
}
