import { Alert, Anchor, Badge, Breadcrumbs, Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconEgg } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { FormError } from '@/components/FormError';
import { ListSkeleton } from '@/components/Skeletons';
import { type GalleryEntry, galleryQuery, nestsQuery, useImportEggUrl } from '@/features/admin-eggs/api';
import { NestDialog } from '@/features/admin-eggs/components/NestDialogs';
import { notify } from '@/lib/notify';

// Light badges keep the text colour: their tinted label alone is too faint to read (axe's contrast check).
const TEXT_LABEL = { label: { color: 'var(--mantine-color-text)' } };

const EntryCard = ({ entry, nestId }: { entry: GalleryEntry; nestId: string | null }) => {
  const { t } = useTranslation();
  const importUrl = useImportEggUrl();
  const title = entry.name ?? entry.url;
  return (
    <Card withBorder component="li" padding="sm" aria-label={title}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" align="flex-start" gap="xs">
          <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {title}
            </Text>
            {entry.author ? (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {t('adminEggs.egg.author', { author: entry.author })}
              </Text>
            ) : null}
          </Stack>
          {entry.error ? null : (
            <Button
              size="xs"
              variant="default"
              disabled={nestId === null}
              loading={importUrl.isPending}
              aria-label={t('adminEggs.gallery.importOne', { name: title })}
              onClick={() =>
                nestId &&
                importUrl.mutate(
                  { nestId, url: entry.url },
                  {
                    onSuccess: (egg) =>
                      notify({
                        color: 'green',
                        message: t('adminEggs.gallery.imported', {
                          name: egg.name,
                          nest: egg.nestName,
                        }),
                      }),
                  },
                )
              }
            >
              {t('adminEggs.gallery.import')}
            </Button>
          )}
        </Group>
        {entry.description ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }} lineClamp={4}>
            {entry.description}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {entry.url}
        </Text>
        {entry.error ? (
          <Alert color="red" variant="light" p="xs">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {t('adminEggs.gallery.unreadable', {
                reason: entry.error.message,
              })}
            </Text>
          </Alert>
        ) : null}
        {entry.installed.length > 0 ? (
          <Group gap="xs" wrap="wrap">
            {entry.installed.map((egg) => (
              <Badge key={egg.id} color="green" variant="light" styles={TEXT_LABEL} style={{ cursor: 'pointer', textTransform: 'none' }} renderRoot={(props) => <Link {...props} to="/admin/eggs/$eggId" params={{ eggId: egg.id }} />}>
                {t('adminEggs.gallery.installedIn', { nest: egg.nestName })}
              </Badge>
            ))}
          </Group>
        ) : null}
        {importUrl.error ? <FormError error={importUrl.error} /> : null}
      </Stack>
    </Card>
  );
};

/** /admin/eggs/gallery: community eggs by URL (EGG_GALLERY_URLS), described by the panel, imported into a chosen nest. */
export const EggGalleryPage = () => {
  const { t } = useTranslation();
  const gallery = useQuery(galleryQuery());
  const nests = useQuery(nestsQuery(1));
  const [chosen, setChosen] = useState<string | null>(null);
  const [creatingNest, setCreatingNest] = useState(false);
  const nestOptions = (nests.data?.data ?? []).map((n) => ({
    value: n.id,
    label: n.name,
  }));
  const nestId = chosen ?? nestOptions[0]?.value ?? null;

  const body = (
    <QueryListBody query={gallery} loading={<ListSkeleton rows={4} />} empty={<EmptyState icon={<IconEgg />} title={t('adminEggs.gallery.emptyTitle')} description={t('adminEggs.gallery.emptyText')} />}>
      {(data) => (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('adminEggs.gallery.title')}>
          {data.map((entry) => (
            <EntryCard key={entry.url} entry={entry} nestId={nestId} />
          ))}
        </Stack>
      )}
    </QueryListBody>
  );

  return (
    <Stack gap="md">
      <Breadcrumbs separatorMargin={6}>
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/admin/nests" />}>
          {t('adminEggs.nests.title')}
        </Anchor>
        <Text size="sm">{t('adminEggs.gallery.title')}</Text>
      </Breadcrumbs>
      <Stack gap={0}>
        <Title order={2} size="h3">
          {t('adminEggs.gallery.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('adminEggs.gallery.subtitle')}
        </Text>
      </Stack>
      {nests.isSuccess && nestOptions.length === 0 ? (
        <Alert color="yellow" variant="light">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">{t('adminEggs.gallery.noNests')}</Text>
            <Button size="xs" onClick={() => setCreatingNest(true)}>
              {t('adminEggs.nests.create')}
            </Button>
          </Group>
        </Alert>
      ) : (
        <Select label={t('adminEggs.gallery.nest')} description={t('adminEggs.gallery.nestHelp')} data={nestOptions} value={nestId} onChange={setChosen} allowDeselect={false} searchable disabled={!nests.isSuccess} maw={360} />
      )}
      {body}
      {creatingNest ? <NestDialog onClose={() => setCreatingNest(false)} onSaved={(nest) => setChosen(nest.id)} /> : null}
    </Stack>
  );
};
