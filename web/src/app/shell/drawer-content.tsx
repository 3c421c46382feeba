import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import type { MouseEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { BrandMark } from '@/components/brand/brand-mark';
import { APP_NAME } from '@/config/app';
import { paths } from '@/config/paths';
import { isNavItemActive, type NavItem } from './nav-items';

type DrawerContentProps = {
  items: NavItem[];
  pathname: string;
  email?: string;
  /** Called on every menu click; may call `event.preventDefault()` to stay on the page. */
  onItemClick: (item: NavItem, event: MouseEvent<HTMLElement>) => void;
  /** The product name in the header links home. */
  onBrandClick: () => void;
};

export function DrawerContent({ items, pathname, email, onItemClick, onBrandClick }: DrawerContentProps) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Toolbar sx={{ px: 2.5 }}>
        <Link
          component={RouterLink}
          to={paths.home.getHref()}
          underline="none"
          color="inherit"
          aria-label={`${APP_NAME}首页`}
          onClick={onBrandClick}
        >
          <BrandMark />
        </Link>
      </Toolbar>
      <Divider />
      <Box component="nav" aria-label="主导航" sx={{ flexGrow: 1, px: 1.5, py: 2 }}>
        <List disablePadding>
          {items.map((item) => {
            const Icon = item.icon;
            const isActive = isNavItemActive(item, pathname);
            return (
              <ListItemButton
                key={item.id}
                component={RouterLink}
                to={item.href}
                selected={isActive}
                aria-current={isActive ? 'page' : undefined}
                onClick={(event: MouseEvent<HTMLElement>) => onItemClick(item, event)}
                data-testid={`nav-${item.id}`}
              >
                <ListItemIcon>
                  <Icon fontSize="small" />
                </ListItemIcon>
                <ListItemText primary={item.label} />
              </ListItemButton>
            );
          })}
        </List>
      </Box>
      <Divider />
      <Box sx={{ px: 2.5, py: 2 }}>
        {email ? (
          <Typography variant="caption" color="text.secondary" component="p" noWrap title={email} sx={{ mb: 0.5 }}>
            {email}
          </Typography>
        ) : null}
        <Link component={RouterLink} to={paths.contact.getHref()} variant="caption" color="text.secondary">
          联系我们
        </Link>
      </Box>
    </Box>
  );
}
