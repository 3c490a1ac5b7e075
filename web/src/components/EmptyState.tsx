import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface EmptyStateProps {
  icon?: ReactNode;
  title: string;
  description?: string;
  /** The next thing to do (a button or link). */
  action?: ReactNode;
}

/** A list or page with nothing in it yet, and what to do about it. */
export const EmptyState = ({ icon, title, description, action }: EmptyStateProps) => (
  <Stack align="center" gap="sm" py="xl" ta="center">
    {icon ? (
      <ThemeIcon size={56} radius="xl" variant="light" color="gray" aria-hidden>
        {icon}
      </ThemeIcon>
    ) : null}
    <Title order={2} size="h3">
      {title}
    </Title>
    {description ? (
      <Text c="dimmed" maw={480}>
        {description}
      </Text>
    ) : null}
    {action}
  </Stack>
);
