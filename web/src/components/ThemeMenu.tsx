import { ActionIcon, Menu, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { IconCheck, IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const ICONS = { light: IconSun, dark: IconMoon, auto: IconDeviceDesktop } as const;

/** Light, dark or follow the system; stored per browser (lib/theme.ts) and applied before paint (public/theme.js). */
export const ThemeMenu = () => {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const Current = ICONS[colorScheme];
  const options: MantineColorScheme[] = ['light', 'dark', 'auto'];
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={`${t('theme.label')}: ${t(`theme.${colorScheme}`)}`}>
          <Current size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('theme.label')}</Menu.Label>
        {options.map((option) => {
          const Icon = ICONS[option];
          return (
            <Menu.Item
              key={option}
              leftSection={<Icon size={16} aria-hidden />}
              onClick={() => setColorScheme(option)}
              rightSection={colorScheme === option ? <IconCheck size={14} aria-hidden /> : null}
              fw={colorScheme === option ? 700 : undefined}
            >
              {t(`theme.${option}`)}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
};
