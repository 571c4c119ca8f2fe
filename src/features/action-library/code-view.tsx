import CodeMirror, { EditorState, EditorView } from '@uiw/react-codemirror';

/** Read-only code viewer of the preview (400 px high, tab size 4: actions.md section 9). Loaded lazily. */
export default function CodeView({ value, label }: { value: string; label: string }) {
  return (
    <div aria-label={label} className="overflow-hidden rounded border border-line text-2xs">
      <CodeMirror
        value={value}
        height="400px"
        editable={false}
        readOnly
        basicSetup={{ tabSize: 4, foldGutter: false, highlightActiveLine: false, autocompletion: false }}
        extensions={[EditorState.tabSize.of(4), EditorView.lineWrapping]}
        theme={document.documentElement.classList.contains('dark') ? 'dark' : 'light'}
      />
    </div>
  );
}
