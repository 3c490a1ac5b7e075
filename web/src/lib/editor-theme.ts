import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { oneDarkTheme } from '@codemirror/theme-one-dark';
import type { Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';

/**
 * One Dark's editor chrome with syntax colours that all reach 4.5:1 (WCAG AA) on its background and
 * on the active line: its coral (4.1:1), violet (4.4:1) and comment grey (3.6:1) fail there, so
 * names, keywords and comments are a shade lighter here.
 */
const darkHighlight = HighlightStyle.define([
  { tag: t.keyword, color: '#d291e4' },
  { tag: [t.name, t.deleted, t.character, t.propertyName, t.macroName], color: '#ef8a92' },
  { tag: [t.function(t.variableName), t.labelName], color: '#61afef' },
  { tag: [t.color, t.constant(t.name), t.standard(t.name)], color: '#d19a66' },
  { tag: [t.definition(t.name), t.separator], color: '#abb2bf' },
  { tag: [t.typeName, t.className, t.number, t.changed, t.annotation, t.modifier, t.self, t.namespace], color: '#e5c07b' },
  { tag: [t.operator, t.operatorKeyword, t.url, t.escape, t.regexp, t.link, t.special(t.string)], color: '#56b6c2' },
  { tag: [t.meta, t.comment], color: '#9aa3b2' },
  { tag: t.strong, fontWeight: 'bold' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strikethrough, textDecoration: 'line-through' },
  { tag: t.link, textDecoration: 'underline' },
  { tag: t.heading, fontWeight: 'bold', color: '#ef8a92' },
  { tag: [t.atom, t.bool, t.special(t.variableName)], color: '#d19a66' },
  { tag: [t.processingInstruction, t.string, t.inserted], color: '#98c379' },
  { tag: t.invalid, color: '#ffffff' },
]);

/** One Dark's line numbers (#7d8799, 3.9:1 on its background) a shade lighter too. */
const darkGutters = EditorView.theme({ '.cm-gutters .cm-gutterElement': { color: '#9aa3b2' } }, { dark: true });

export const darkEditorTheme: Extension = [oneDarkTheme, darkGutters, syntaxHighlighting(darkHighlight)];
