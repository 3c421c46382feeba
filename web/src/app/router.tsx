import { type ComponentType, lazy } from 'react';
import { createBrowserRouter, type RouteObject, RouterProvider } from 'react-router-dom';
import { paths } from '@/config/paths';
import { RequireAuth } from '@/features/auth/components/require-auth';
import { RouteError } from './route-error';
import { RootLayout } from './routes/root-layout';

/** React.lazy for a module's named export, so every page is its own chunk. */
function lazyPage<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const LandingRoute = lazyPage(() => import('./routes/landing'), 'LandingRoute');
const NotFoundRoute = lazyPage(() => import('./routes/not-found'), 'NotFoundRoute');
const LoginPage = lazyPage(() => import('@/features/auth/pages/login-page'), 'LoginPage');
const RegisterPage = lazyPage(() => import('@/features/auth/pages/register-page'), 'RegisterPage');
const ForgotPasswordPage = lazyPage(() => import('@/features/auth/pages/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyPage(() => import('@/features/auth/pages/reset-password-page'), 'ResetPasswordPage');
const VerifyEmailPage = lazyPage(() => import('@/features/auth/pages/verify-email-page'), 'VerifyEmailPage');
const ContactRoute = lazyPage(() => import('./routes/contact'), 'ContactRoute');
const PapersRoute = lazyPage(() => import('./routes/papers'), 'PapersRoute');
const NewsRoute = lazyPage(() => import('./routes/news'), 'NewsRoute');
const KeywordsRoute = lazyPage(() => import('./routes/keywords'), 'KeywordsRoute');
const ArticleSearchRoute = lazyPage(() => import('./routes/article-search'), 'ArticleSearchRoute');
const NewsSearchPage = lazyPage(() => import('@/features/news-search/pages/news-search-page'), 'NewsSearchPage');
const LibraryPage = lazyPage(() => import('@/features/articles/pages/library-page'), 'LibraryPage');
const AccountRoute = lazyPage(() => import('./routes/account'), 'AccountRoute');
const FeedbackRoute = lazyPage(() => import('./routes/feedback'), 'FeedbackRoute');

/** Every screen's route; screens that need an account sit under RequireAuth. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        // Page errors render inside the shell, so the menu keeps working.
        errorElement: <RouteError />,
        children: [
          { path: paths.home.path, element: <LandingRoute /> },
          { path: paths.login.path, element: <LoginPage /> },
          { path: paths.register.path, element: <RegisterPage /> },
          { path: paths.forgotPassword.path, element: <ForgotPasswordPage /> },
          { path: paths.resetPassword.path, element: <ResetPasswordPage /> },
          { path: paths.verifyEmail.path, element: <VerifyEmailPage /> },
          { path: paths.contact.path, element: <ContactRoute /> },
          {
            element: <RequireAuth />,
            children: [
              { path: paths.papers.path, element: <PapersRoute /> },
              { path: paths.news.path, element: <NewsRoute /> },
              { path: paths.keywords.path, element: <KeywordsRoute /> },
              { path: paths.search.path, element: <ArticleSearchRoute /> },
              { path: paths.newsSearch.path, element: <NewsSearchPage /> },
              { path: paths.library.path, element: <LibraryPage /> },
              { path: paths.my.path, element: <AccountRoute /> },
              { path: paths.feedback.path, element: <FeedbackRoute /> },
            ],
          },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
];

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
