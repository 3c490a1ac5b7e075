import { Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ThemeMenu } from '@/components/ThemeMenu';

/**
 * The frame of the pages outside the app's shell (signing in, and the two-factor setup the policy
 * holds a user at): the app's name, the theme switch and `actions` over the content.
 */
export const AuthFrame = ({ width = 420, actions, children }: { width?: number; actions?: ReactNode; children: ReactNode }) => {
  const { t } = useTranslation();
  return (
    <Center component="main" mih="100dvh" p="md">
      <Stack w="100%" maw={width} gap="md">
        <Group justify="space-between">
          <Text fw={700} size="xl">
            {t('app.name')}
          </Text>
          <Group gap="xs">
            <ThemeMenu />
            {actions}
          </Group>
        </Group>
        {children}
      </Stack>
    </Center>
  );
};

/** The frame of the signed-out pages: the app's name, a card with the form, the theme switch. */
export const AuthCard = ({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) => (
  <AuthFrame>
    <Paper withBorder shadow="sm" p="lg" radius="md">
      <Stack gap="md">
        <div>
          <Title order={1} size="h2">
            {title}
          </Title>
          {subtitle ? (
            <Text c="dimmed" size="sm" mt={4}>
              {subtitle}
            </Text>
          ) : null}
        </div>
        {children}
      </Stack>
    </Paper>
  </AuthFrame>
);
