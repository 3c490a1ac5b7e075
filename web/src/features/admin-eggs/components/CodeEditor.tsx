import { Input, Paper, useComputedColorScheme } from '@mantine/core';
import { LanguageDescription, type LanguageSupport } from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { EditorView } from '@codemirror/view';
import CodeMirror from '@uiw/react-codemirror';
import { useEffect, useId, useMemo, useState } from 'react';
import { useReadOnly } from '@/components/read-only';
import { darkEditorTheme } from '@/lib/editor-theme';

// Only the egg routes import this, and the router loads each route's chunk on demand, so CodeMirror
// stays out of the initial bundle; the JSON and shell grammars are further lazy chunks.

const useLanguage = (name: 'JSON' | 'Shell'): LanguageSupport | undefined => {
  const [support, setSupport] = useState<LanguageSupport>();
  useEffect(() => {
    let live = true;
    void LanguageDescription.matchLanguageName(languages, name)
      ?.load()
      .then((loaded) => live && setSupport(loaded));
    return () => {
      live = false;
    };
  }, [name]);
  return support;
};

interface CodeEditorProps {
  label: string;
  description?: string;
  value: string;
  onChange: (value: string) => void;
  language: 'JSON' | 'Shell';
  /** A problem with the text, shown under the editor and announced with it. */
  error?: string;
  minHeight?: string;
  maxHeight?: string;
}

/**
 * A labelled CodeMirror field (line numbers, search, brackets), its theme following the colour scheme;
 * read only (still selectable and searchable) on a page shown read only.
 */
export const CodeEditor = ({ label, description, value, onChange, language, error, minHeight = '120px', maxHeight = '420px' }: CodeEditorProps) => {
  const id = useId();
  const readOnly = useReadOnly();
  const scheme = useComputedColorScheme('light');
  const support = useLanguage(language);
  const extensions = useMemo(
    () => [
      EditorView.lineWrapping,
      ...(support ? [support] : []),
      EditorView.contentAttributes.of({
        // Focusable already (contenteditable); said so for checkers of scrolling regions, which look for a tabindex.
        tabindex: '0',
        'aria-labelledby': `${id}-label`,
        ...(description || error ? { 'aria-describedby': [description ? `${id}-description` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') } : {}),
        ...(error ? { 'aria-invalid': 'true' } : {}),
        ...(readOnly ? { 'aria-readonly': 'true' } : {}),
      }),
    ],
    [support, id, description, error, readOnly],
  );
  return (
    <Input.Wrapper label={label} description={description} error={error} id={id} labelElement="div" labelProps={{ id: `${id}-label` }}>
      <Paper withBorder mt={4} style={{ overflow: 'hidden', borderColor: error ? 'var(--mantine-color-error)' : undefined }}>
        <CodeMirror
          value={value}
          onChange={onChange}
          minHeight={minHeight}
          maxHeight={maxHeight}
          theme={scheme === 'dark' ? darkEditorTheme : 'light'}
          extensions={extensions}
          readOnly={readOnly}
          basicSetup={{ searchKeymap: true, foldGutter: false, highlightActiveLine: false }}
        />
      </Paper>
    </Input.Wrapper>
  );
};
