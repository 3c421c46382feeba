import MenuRounded from '@mui/icons-material/MenuRounded';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type MouseEvent, type ReactNode, useLayoutEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { BrandMark } from '@/components/brand/brand-mark';
import { ComingSoonDialog } from '@/components/dialogs/coming-soon-dialog';
import { NeedLoginDialog } from '@/components/dialogs/need-login-dialog';
import { paths } from '@/config/paths';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { earlyPageAt, endEarlyView } from '@/lib/early-view';
import { createReturnState } from '@/lib/navigation-state';
import { DrawerContent } from './drawer-content';
import { getNavItems, type NavItem } from './nav-items';

/** Width of the permanent drawer, in px. */
const DRAWER_WIDTH = 240;

/**
 * The app shell: a permanent 240 px drawer from the md breakpoint (768 px) up; below it a top
 * bar that opens a temporary drawer. Only one drawer is mounted at a time, so test ids are unique.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const theme = useTheme();
  const isWide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const location = useLocation();
  const navigate = useNavigate();
  const { status, user } = useAuth();

  // The early view (app/early-view) stands only for /papers and /news; any other route ends it.
  useLayoutEffect(() => {
    if (!earlyPageAt(location.pathname)) endEarlyView();
  }, [location.pathname]);

  const [isMobileOpen, setMobileOpen] = useState(false);
  const [isNeedLoginOpen, setNeedLoginOpen] = useState(false);
  const [comingSoonItem, setComingSoonItem] = useState<NavItem | null>(null);

  // While a stored token is being checked, act as signed in; the route guard has the final say.
  const hasSession = status !== 'anonymous';
  const items = getNavItems(hasSession);

  const handleItemClick = (item: NavItem, event: MouseEvent<HTMLElement>) => {
    setMobileOpen(false);
    if (item.comingSoon) {
      event.preventDefault();
      setComingSoonItem(item);
    } else if (item.requiresAuth && !hasSession) {
      event.preventDefault();
      setNeedLoginOpen(true);
    }
  };

  const goToLogin = () => {
    setNeedLoginOpen(false);
    navigate(paths.login.getHref(), {
      state: createReturnState(`${location.pathname}${location.search}${location.hash}`),
    });
  };

  const drawerContent = (
    <DrawerContent
      items={items}
      pathname={location.pathname}
      email={user?.email}
      onItemClick={handleItemClick}
      onBrandClick={() => setMobileOpen(false)}
    />
  );

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      {isWide ? (
        <Drawer
          variant="permanent"
          data-testid="app-drawer"
          data-variant="permanent"
          sx={{
            width: DRAWER_WIDTH,
            flexShrink: 0,
            '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
          }}
        >
          {drawerContent}
        </Drawer>
      ) : (
        <>
          <AppBar position="fixed" data-testid="app-top-bar">
            <Toolbar>
              <IconButton
                edge="start"
                onClick={() => setMobileOpen(true)}
                aria-label="打开导航菜单"
                aria-expanded={isMobileOpen}
                data-testid="app-drawer-toggle"
                sx={{ mr: 1.5 }}
              >
                <MenuRounded />
              </IconButton>
              <BrandMark />
            </Toolbar>
          </AppBar>
          <Drawer
            variant="temporary"
            open={isMobileOpen}
            onClose={() => setMobileOpen(false)}
            data-testid="app-drawer"
            data-variant="temporary"
            sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' } }}
          >
            {drawerContent}
          </Drawer>
        </>
      )}

      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        {isWide ? null : <Toolbar />}
        {children}
      </Box>

      <NeedLoginDialog open={isNeedLoginOpen} onCancel={() => setNeedLoginOpen(false)} onLogin={goToLogin} />
      <ComingSoonDialog
        open={comingSoonItem !== null}
        featureName={comingSoonItem?.label}
        onClose={() => setComingSoonItem(null)}
      />
    </Box>
  );
}
