import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { CopyButton } from '@/components/CopyButton';

interface ShownOnceSecretProps {
  title: string;
  /** Why to copy it now. */
  text: string;
  value: string;
  /** The copy button's accessible name ("Copy the API key"). */
  copyLabel: string;
  /** For tests to read the secret. */
  testId: string;
  dismissLabel: string;
  onDismiss: () => void;
  /** What follows the secret: how to use it. */
  children?: ReactNode;
}

/** A secret the panel returns only once (a new key), with a copy button, until the reader dismisses it. */
export const ShownOnceSecret = ({ title, text, value, copyLabel, testId, dismissLabel, onDismiss, children }: ShownOnceSecretProps) => (
  <Alert color="teal" variant="light" title={title} styles={{ title: { color: 'var(--mantine-color-text)' } }} role="status">
    <Stack gap="xs">
      <Text size="sm">{text}</Text>
      <Group gap={4} wrap="nowrap" align="flex-start">
        <Code data-testid={testId} fz="sm" style={{ overflowWrap: 'anywhere' }}>
          {value}
        </Code>
        <CopyButton value={value} label={copyLabel} />
      </Group>
      {children}
      <Group>
        <Button size="xs" variant="light" onClick={onDismiss}>
          {dismissLabel}
        </Button>
      </Group>
    </Stack>
  </Alert>
);
