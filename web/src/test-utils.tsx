import { MantineProvider } from '@mantine/core';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '@/lib/i18n/i18n';
import { theme } from '@/lib/theme';

/** Renders a component with the app's theme and translations, as main.tsx provides them. */
export const renderWithProviders = (ui: ReactElement): RenderResult =>
  render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme}>{ui}</MantineProvider>
    </I18nextProvider>,
  );
