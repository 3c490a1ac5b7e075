import { Stack, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { OwnerSelect } from '@/features/admin-servers/components/fields';
import type { StepProps } from '@/features/admin-servers/components/wizard/step-props';

/** Name, description and owner. */
export const DetailsStep = ({ form, patch, errors }: StepProps) => {
  const { t } = useTranslation();
  return (
    <Stack>
      <TextInput label={t('adminServers.fields.name')} required maxLength={191} value={form.name} onChange={(e) => patch({ name: e.currentTarget.value })} error={errors.name} data-autofocus />
      <Textarea label={t('adminServers.fields.description')} autosize minRows={2} value={form.description} onChange={(e) => patch({ description: e.currentTarget.value })} error={errors.description} />
      <OwnerSelect value={form.ownerId} onChange={(ownerId) => patch({ ownerId })} error={errors.owner_id} />
    </Stack>
  );
};
