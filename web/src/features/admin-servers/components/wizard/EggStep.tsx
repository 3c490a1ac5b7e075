import { Button, Checkbox, Loader, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { eggsQuery, nestsQuery, type Egg } from '@/features/admin-servers/api';
import type { StepProps } from '@/features/admin-servers/components/wizard/step-props';
import { CUSTOM_IMAGE } from '@/features/admin-servers/wizard';
import { describeError } from '@/lib/errors';
import { onlyChoice } from '@/lib/only-choice';

/** Nest and egg, then the egg's image, startup command and whether to run its install script. */
export const EggStep = ({ form, patch, errors, egg }: StepProps & { egg: Egg | undefined }) => {
  const { t, i18n } = useTranslation();
  const nests = useQuery(nestsQuery);
  const eggs = useQuery(eggsQuery(form.nestId));
  // The only nest, then the only egg in it, is the choice.
  const onlyNest = onlyChoice(nests.data);
  const onlyEgg = form.nestId ? onlyChoice(eggs.data) : undefined;
  useEffect(() => {
    if (!form.nestId && onlyNest) {
      patch({ nestId: onlyNest.id, eggId: '' });
    } else if (form.nestId && !form.eggId && onlyEgg) {
      patch({ eggId: onlyEgg.id });
    }
  }, [form.nestId, form.eggId, onlyNest, onlyEgg, patch]);
  if (nests.isError) {
    return <ErrorState error={nests.error} onRetry={() => void nests.refetch()} />;
  }
  const images = [...(egg?.dockerImages ?? []).map((d) => ({ value: d.image, label: `${d.name} (${d.image})` })), { value: CUSTOM_IMAGE, label: t('adminServers.fields.customImage') }];
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('adminServers.fields.nest')}
          required
          searchable
          placeholder={nests.isPending ? t('common.loading') : undefined}
          data={(nests.data ?? []).map((n) => ({ value: n.id, label: n.name }))}
          value={form.nestId || null}
          onChange={(v) => patch({ nestId: v ?? '', eggId: '' })}
          nothingFoundMessage={t('adminServers.fields.noNest')}
        />
        <Select
          label={t('adminServers.fields.egg')}
          required
          searchable
          disabled={!form.nestId}
          placeholder={form.nestId && eggs.isPending ? t('common.loading') : undefined}
          data={(eggs.data ?? []).map((e) => ({ value: e.id, label: e.name }))}
          value={form.eggId || null}
          onChange={(v) => patch({ eggId: v ?? '' })}
          error={errors.egg_id ?? (eggs.isError ? describeError(eggs.error, t, i18n.language).message : undefined)}
          nothingFoundMessage={t('adminServers.fields.noEgg')}
        />
      </SimpleGrid>
      {form.eggId && !egg ? <Loader size="sm" aria-label={t('common.loading')} /> : null}
      {egg ? (
        <>
          <Select label={t('adminServers.fields.image')} required data={images} value={form.image || null} onChange={(v) => patch({ image: v ?? '' })} error={form.image === CUSTOM_IMAGE ? undefined : errors.docker_image} />
          {form.image === CUSTOM_IMAGE ? (
            <TextInput label={t('adminServers.fields.customImageName')} required placeholder="ghcr.io/owner/image:tag" value={form.customImage} onChange={(e) => patch({ customImage: e.currentTarget.value })} error={errors.docker_image} />
          ) : null}
          <Textarea
            label={t('adminServers.fields.startup')}
            description={t('adminServers.fields.startupHelp')}
            required
            autosize
            minRows={2}
            value={form.startup}
            onChange={(e) => patch({ startup: e.currentTarget.value })}
            error={errors.startup}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            rightSection={
              form.startup !== egg.startup ? (
                <Button variant="subtle" size="compact-xs" onClick={() => patch({ startup: egg.startup })}>
                  {t('adminServers.fields.resetStartup')}
                </Button>
              ) : null
            }
            rightSectionWidth={form.startup !== egg.startup ? 90 : undefined}
          />
          <Checkbox label={t('adminServers.fields.skipScripts')} description={t('adminServers.fields.skipScriptsHelp')} checked={form.skipScripts} onChange={(e) => patch({ skipScripts: e.currentTarget.checked })} />
        </>
      ) : null}
    </Stack>
  );
};
