import { Checkbox, Fieldset, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { groupState, PERMISSION_GROUPS, permissionLabelKey, toggleGroup } from '@/features/subusers/permission-groups';

interface PermissionMatrixProps {
  chosen: ReadonlySet<string>;
  /** The granter's own permissions: boxes outside them are disabled. */
  grantable: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
}

/** The permissions by area, each group with a select-all box; what the granter lacks is shown but disabled. */
export const PermissionMatrix = ({ chosen, grantable, onChange }: PermissionMatrixProps) => {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {PERMISSION_GROUPS.map((group) => {
        const state = groupState(group.permissions, chosen, grantable);
        return (
          <Fieldset key={group.key} legend={t(`subusers.groups.${group.key}`)} p="sm">
            <Stack gap={6}>
              <Checkbox
                label={<Text fw={600} size="sm">{t('subusers.selectAll')}</Text>}
                aria-label={t('subusers.selectAllOf', { group: t(`subusers.groups.${group.key}`) })}
                checked={state.all}
                indeterminate={state.some}
                disabled={state.toggleable.length === 0}
                onChange={() => onChange(toggleGroup(group.permissions, chosen, grantable))}
              />
              {group.permissions.map((permission) => {
                const lacking = !grantable.has(permission);
                return (
                  <Checkbox
                    key={permission}
                    label={t(permissionLabelKey(permission))}
                    description={lacking ? t('subusers.notYours') : undefined}
                    checked={chosen.has(permission)}
                    disabled={lacking}
                    data-permission={permission}
                    onChange={(e) => {
                      const next = new Set(chosen);
                      if (e.currentTarget.checked) {
                        next.add(permission);
                      } else {
                        next.delete(permission);
                      }
                      onChange(next);
                    }}
                  />
                );
              })}
            </Stack>
          </Fieldset>
        );
      })}
    </SimpleGrid>
  );
};
