/** A CodeMirror editor bound to a form field (host_cli scripts, cloud scripts), with its label and error. */
import CodeMirror from '@uiw/react-codemirror';
import { EditorView } from '@codemirror/view';
import { indentUnit } from '@codemirror/language';
import { EditorState, type Extension } from '@codemirror/state';
import { useEffect, useId, useMemo, useState } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { ErrorText, labelClass, useFieldError, type FormPath, requiredLabelClass } from './controls';
import type { ActionFormValues } from './form-model';
import { hostCliIndentGuard, hostCliLanguage, hostCliLinter, pythonLanguage } from './code-languages';

export type CodeLanguage = 'host_cli' | 'python' | 'plain';

function useDark(): boolean {
  const [dark, setDark] = useState(() => document.documentElement.classList.contains('dark'));
  useEffect(() => {
    const o = new MutationObserver(() => setDark(document.documentElement.classList.contains('dark')));
    o.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => o.disconnect();
  }, []);
  return dark;
}

interface Props {
  name: FormPath;
  label: string;
  language: CodeLanguage;
  /** CSS height: 400px for the main scripts, 200px for cleanup. */
  height: string;
  tabSize: number;
  disabled?: boolean;
  hint?: string;
  required?: boolean;
}

export function CodeEditorField({ name, label, language, height, tabSize, disabled, hint, required }: Props) {
  const { control } = useFormContext<ActionFormValues>();
  const id = useId();
  const error = useFieldError(name);
  const dark = useDark();
  const extensions = useMemo(() => {
    const ext: Extension[] = [
      EditorState.tabSize.of(tabSize),
      indentUnit.of(' '.repeat(tabSize)),
      EditorView.contentAttributes.of({ 'aria-label': label, 'aria-describedby': `${id}-hint ${id}-error`, 'data-field': name }),
      EditorView.lineWrapping,
    ];
    if (language === 'host_cli') ext.push(hostCliLanguage, hostCliIndentGuard, hostCliLinter());
    if (language === 'python') ext.push(pythonLanguage);
    return ext;
  }, [language, tabSize, label, id, name]);
  return (
    <div className="flex flex-col gap-1">
      <span id={`${id}-label`} className={required ? requiredLabelClass : labelClass}>
        {label}
      </span>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <div className={`overflow-hidden rounded border ${error ? 'border-red-500' : 'border-line'}`} data-code-editor={name}>
            <CodeMirror
              value={typeof field.value === 'string' ? field.value : ''}
              height={height}
              theme={dark ? 'dark' : 'light'}
              editable={!disabled}
              readOnly={disabled}
              basicSetup={{ tabSize, foldGutter: false, highlightActiveLineGutter: true, autocompletion: false }}
              extensions={extensions}
              onChange={(v) => field.onChange(v)}
              onBlur={field.onBlur}
            />
          </div>
        )}
      />
      {hint && (
        <span id={`${id}-hint`} className="text-2xs text-muted">
          {hint}
        </span>
      )}
      <ErrorText id={`${id}-error`} message={error} />
    </div>
  );
}
