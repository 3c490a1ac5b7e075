import { createContext, useContext } from 'react';

/**
 * Whether the page around is shown read only (ReadOnlyWhen): for the controls a disabled fieldset does
 * not reach, such as a CodeMirror editor (an element with contenteditable, not a form field).
 */
export const ReadOnlyContext = createContext(false);

export const useReadOnly = (): boolean => useContext(ReadOnlyContext);
