import { Text } from '@mantine/core';
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

/** The line a read-only page shows (what the caller's roles allow there), or nothing when it is not read-only. */
export const ReadOnlyNotice = ({ when, children }: { when: boolean; children: ReactNode }) =>
  when ? (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  ) : null;
