import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Egg } from '@/features/admin-servers/api';
import { VariableField } from '@/features/admin-servers/components/fields';
import type { StepProps } from '@/features/admin-servers/components/wizard/step-props';

/** The egg's variables, each with its rules. */
export const VariablesStep = ({ form, patch, errors, egg }: StepProps & { egg: Egg }) => {
  const { t } = useTranslation();
  if (egg.variables.length === 0) {
    return <Text c="dimmed">{t('adminServers.variables.none')}</Text>;
  }
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('adminServers.variables.help')}
      </Text>
      {egg.variables.map((v) => (
        <VariableField
          key={v.envVariable}
          variable={v}
          showAccess
          value={form.environment[v.envVariable] ?? ''}
          onChange={(value) => patch({ environment: { ...form.environment, [v.envVariable]: value } })}
          error={errors[`environment.${v.envVariable}`]}
        />
      ))}
    </Stack>
  );
};
