import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, parseBlocks, safeHref } from './markdown';

describe('Markdown descriptions, rendered safely', () => {
  it('renders headings, lists, code, emphasis and links', () => {
    const { container } = render(
      <Markdown source={'# Title\n\nRuns `whoami` with **care** and *style*.\n\n- one\n- two\n\n1. first\n\n```\nline 1\nline 2\n```\n\nSee [docs](https://attack.mitre.org/techniques/T1059/).'} />,
    );
    expect(container.querySelector('h3')?.textContent).toBe('Title');
    expect(container.querySelector('code')?.textContent).toBe('whoami');
    expect(container.querySelector('strong')?.textContent).toBe('care');
    expect(container.querySelector('em')?.textContent).toBe('style');
    expect([...container.querySelectorAll('ul li')].map((l) => l.textContent)).toEqual(['one', 'two']);
    expect(container.querySelector('ol li')?.textContent).toBe('first');
    expect(container.querySelector('pre')?.textContent).toBe('line 1\nline 2');
    const a = container.querySelector('a');
    expect(a?.getAttribute('href')).toBe('https://attack.mitre.org/techniques/T1059/');
    expect(a?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('MON-119 the rich text offers headings H1 to H6, lists, bold and italic', () => {
    const { container } = render(<Markdown source={'# one\n\n## two\n\n### three\n\n#### four\n\n##### five\n\n###### six\n\n- item\n\n1. first\n\n**bold** and *italic*'} headingOffset={0} />);
    expect(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => container.querySelector(h)?.textContent)).toEqual(['one', 'two', 'three', 'four', 'five', 'six']);
    expect(container.querySelector('ul li')?.textContent).toBe('item');
    expect(container.querySelector('ol li')?.textContent).toBe('first');
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('em')?.textContent).toBe('italic');
  });

  it('shows raw HTML as text and drops unsafe link targets', () => {
    const { container } = render(<Markdown source={'<img src=x onerror="alert(1)"><script>alert(2)</script> [click](javascript:alert(3)) [data](data:text/html,x)'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('<script>alert(2)</script>');
    expect(container.textContent).toContain('click');
    expect(safeHref('//evil.example/x')).toBeNull();
    expect(safeHref('/jobs/12')).toBe('/jobs/12');
  });

  it('parses headings, lists, code, quotes and paragraphs', () => {
    expect(parseBlocks('# T\n\npara one\nline two\n\n- a\n- b\n\n1. x\n\n```\n<b>code</b>\n```\n> q\n\n---').map((b) => b.kind)).toEqual(['h', 'p', 'ul', 'ol', 'code', 'quote', 'hr']);
  });

  it('follows only http(s), mailto and same-origin paths; //host and /\\host lead off-site and stay text', () => {
    expect(safeHref('https://attack.mitre.org')).toBe('https://attack.mitre.org');
    expect(safeHref('mailto:soc@example.com')).toBe('mailto:soc@example.com');
    expect(safeHref('/manage_sims/actions')).toBe('/manage_sims/actions');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('JavaScript:alert(1)')).toBeNull();
    expect(safeHref('//evil.example')).toBeNull();
    expect(safeHref('/\\evil.example')).toBeNull();
    expect(safeHref('/\t/evil.example')).toBeNull();
    expect(safeHref('data:text/html,x')).toBeNull();
    expect(safeHref('relative/path')).toBeNull();
  });

  it('keeps same-origin links in the workbench and opens external ones in a new tab; sets the heading level and the empty text', () => {
    const { container, getByText } = render(<Markdown source={'# Top\n\n[job](/jobs/12) [bad](/\\evil.example) [ext](https://example.com)'} headingOffset={0} />);
    expect(container.querySelector('h1')?.textContent).toBe('Top');
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/jobs/12', 'https://example.com']);
    expect(links[0]!.getAttribute('target')).toBeNull();
    expect(links[1]!.getAttribute('target')).toBe('_blank');
    expect(container.textContent).toContain('bad');
    render(<Markdown source="  " empty="Nothing to preview." />);
    expect(getByText('Nothing to preview.')).toBeTruthy();
  });
});
