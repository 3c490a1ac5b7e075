import { Anchor, Breadcrumbs, Button, Group, ScrollArea, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconDownload, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { ReadOnlyNotice, ReadOnlyWhen } from '@/components/ReadOnlyWhen';
import { PageSkeleton } from '@/components/Skeletons';
import { eggQuery, exportEgg, useDeleteEgg } from '@/features/admin-eggs/api';
import { EggUpdateDialog } from '@/features/admin-eggs/components/EggUpdateDialog';
import { useCanWrite } from '@/features/auth/admin-access';
import { notify, notifyError } from '@/lib/notify';

/** The egg's tabs: each a child route of /admin/eggs/$eggId, its value the path segment after it. */
const TABS = [
  { value: 'configuration', to: '/admin/eggs/$eggId', label: 'adminEggs.egg.tabs.configuration' },
  { value: 'variables', to: '/admin/eggs/$eggId/variables', label: 'adminEggs.egg.tabs.variables' },
  { value: 'script', to: '/admin/eggs/$eggId/script', label: 'adminEggs.egg.tabs.script' },
] as const;

const tabOf = (pathname: string): string => pathname.split('/').filter(Boolean)[3] ?? 'configuration';

/** Saves text as a file through a temporary object URL. */
const saveFile = (text: string, fileName: string) => {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
};

/**
 * /admin/eggs/$eggId/...: the egg's name and nest, export and delete, and its tabs. A caller who may only
 * read eggs (an administrator role) can export it and read every tab, with their controls disabled.
 */
export const EggLayout = ({ eggId }: { eggId: string }) => {
  const readOnly = !useCanWrite('eggs');
  const { t } = useTranslation();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const egg = useQuery(eggQuery(eggId));
  const remove = useDeleteEgg();
  const [deleting, setDeleting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [updating, setUpdating] = useState(false);

  if (egg.isPending) {
    return <PageSkeleton />;
  }
  if (egg.isError) {
    return <ErrorState error={egg.error} onRetry={() => void egg.refetch()} />;
  }
  const { nestId, nestName, name } = egg.data;

  const download = async () => {
    setExporting(true);
    try {
      const file = await exportEgg(eggId);
      saveFile(file.text, file.fileName);
    } catch (error) {
      notifyError(error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="md">
      <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap' }}>
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/admin/nests" />}>
          {t('adminEggs.nests.title')}
        </Anchor>
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/admin/nests/$nestId" params={{ nestId }} />} style={{ overflowWrap: 'anywhere' }}>
          {nestName}
        </Anchor>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {name}
        </Text>
      </Breadcrumbs>
      <Group justify="space-between" wrap="wrap" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Title>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t('adminEggs.egg.author', { author: egg.data.author })}
          </Text>
        </Stack>
        <Group gap="xs">
          {egg.data.updateUrl && !readOnly ? (
            <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => setUpdating(true)}>
              {t('adminEggs.update.button')}
            </Button>
          ) : null}
          <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} loading={exporting} onClick={() => void download()}>
            {t('adminEggs.egg.export')}
          </Button>
          {readOnly ? null : (
            <Button variant="default" onClick={() => setDeleting(true)}>
              {t('adminEggs.egg.delete')}
            </Button>
          )}
        </Group>
      </Group>
      <Tabs
        value={tabOf(pathname)}
        onChange={(value) => {
          const tab = TABS.find((x) => x.value === value);
          if (tab) {
            void navigate({ to: tab.to, params: { eggId } });
          }
        }}
        keepMounted={false}
      >
        <ScrollArea type="never">
          <Tabs.List style={{ flexWrap: 'nowrap' }} aria-label={t('adminEggs.egg.tabs.label')}>
            {TABS.map((tab) => (
              <Tabs.Tab key={tab.value} value={tab.value}>
                {t(tab.label)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </ScrollArea>
      </Tabs>
      <ReadOnlyNotice when={readOnly}>{t('adminEggs.egg.readOnly')}</ReadOnlyNotice>
      {/* The key resets a tab's form to what was saved. */}
      <ReadOnlyWhen key={egg.data.updatedAt} readOnly={readOnly}>
        <Outlet />
      </ReadOnlyWhen>
      {updating ? <EggUpdateDialog eggId={eggId} name={name} onClose={() => setUpdating(false)} /> : null}
      <ConfirmDialog
        opened={deleting}
        title={t('adminEggs.egg.deleteTitle')}
        message={
          <Stack gap="sm">
            <Text size="sm">{t('adminEggs.egg.deleteText', { name })}</Text>
            {remove.error ? <FormError error={remove.error} /> : null}
          </Stack>
        }
        confirmLabel={t('adminEggs.egg.delete')}
        danger
        loading={remove.isPending}
        onClose={() => {
          setDeleting(false);
          remove.reset();
        }}
        onConfirm={() =>
          remove.mutate(eggId, {
            onSuccess: () => {
              notify({ color: 'green', message: t('adminEggs.egg.deleted', { name }) });
              void navigate({ to: '/admin/nests/$nestId', params: { nestId } });
            },
          })
        }
      />
    </Stack>
  );
};
