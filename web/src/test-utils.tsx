import { MantineProvider } from '@mantine/core';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { Account } from '@/features/account/api';
import { i18n } from '@/lib/i18n/i18n';
import { theme } from '@/lib/theme';

/** Renders a component with the app's theme and translations, as main.tsx provides them. */
export const renderWithProviders = (ui: ReactElement): RenderResult =>
  render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme}>{ui}</MantineProvider>
    </I18nextProvider>,
  );

/** A signed-in user's account as `GET /api/account` answers it: a plain user with a password, nothing else on. */
export const testAccount = (over: Partial<Account> = {}): Account => ({
  id: '7',
  uuid: 'u-7',
  username: 'tess',
  email: 'tess@example.test',
  name: 'Tess',
  admin: false,
  twoFactorEnabled: false,
  hasPasskey: false,
  hasPassword: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
