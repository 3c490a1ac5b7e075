import type { ReactNode } from 'react';
import { ReadOnlyContext } from '@/components/read-only';

/**
 * A page's forms for a caller who may only read them (an administrator role without write on the
 * area): every field and button inside is disabled by the browser (a disabled fieldset), and editors
 * that are not form fields read `useReadOnly()`, so what the role cannot do is not offered, while what
 * it may read stays in place.
 */
export const ReadOnlyWhen = ({ readOnly, children }: { readOnly: boolean; children: ReactNode }) =>
  readOnly ? (
    <ReadOnlyContext.Provider value>
      <fieldset disabled style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        {children}
      </fieldset>
    </ReadOnlyContext.Provider>
  ) : (
    children
  );
