// @vitest-environment happy-dom
import { API_PATHS, type DeliverySettings } from '@radar/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

/** 推送与订阅 on /my: hidden without the API, the schedule saved with this browser's filters, feed and robot. */

const settings = (overrides: Partial<DeliverySettings> = {}): DeliverySettings => ({
  frequency: 'off',
  weekday: 1,
  hour: 8,
  time_zone: 'Asia/Shanghai',
  email_enabled: true,
  paper_filters: null,
  news_filters: null,
  feed_enabled: false,
  webhook: null,
  next_delivery_at: null,
  last_delivered_at: null,
  ...overrides,
});

describe('推送与订阅', () => {
  const api = useFakeApi();

  it('is left out when the backend has no delivery API (404)', async () => {
    const user = testUser();
    renderApp(api, '/my', { user });
    expect(await screen.findByText(user.research_summary_en)).toBeTruthy();
    await waitFor(() => expect(api.requestsTo('GET', API_PATHS.deliverySettings).length).toBeGreaterThan(0));
    await waitFor(() => expect(screen.queryByText('推送与订阅')).toBeNull());
  });

  it('saves a daily digest with the /papers filters of this browser, shows the new feed address once, and a refused robot address under its field', async () => {
    api.on('GET', API_PATHS.deliverySettings, { body: settings() });
    const saved = settings({ frequency: 'daily', hour: 8, next_delivery_at: '2026-11-28T00:00:00Z' });
    api.on('PUT', API_PATHS.deliverySettings, { body: saved });
    api.on('POST', API_PATHS.deliveryFeedToken, { body: { feed_url: 'http://radar.test/api/delivery/feed/abc/' } });
    api.on('PUT', API_PATHS.deliveryWebhook, {
      status: 400,
      body: {
        code: 'VALIDATION_ERROR',
        message: 'Webhook 地址必须以 https:// 开头',
        fields: { url: ['Webhook 地址必须以 https:// 开头'] },
      },
    });
    // What /papers stored in this browser.
    const storage = {
      recommendationParams: JSON.stringify({
        topK: 20,
        threshold: 0.45,
        excludedJCR: [4],
        dateFilter: ['一天内', '两天内'],
      }),
    };
    const { user: events } = renderApp(api, '/my', { user: testUser(), storage });
    const section = await screen.findByTestId('delivery-section');
    await within(section).findByTestId('delivery-schedule');

    await events.click(within(section).getByRole('combobox', { name: /频率/ }));
    await events.click(await screen.findByRole('option', { name: '每天' }));
    await events.click(within(section).getByTestId('delivery-save'));
    await within(section).findByTestId('delivery-next');
    const body = api.requestsTo('PUT', API_PATHS.deliverySettings)[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      frequency: 'daily',
      hour: 8,
      email_enabled: true,
      paper_filters: { threshold: 0.45, excluded_jcr: [4], date_filter: ['一天内', '两天内'] },
    });

    await events.click(within(section).getByTestId('delivery-feed-generate'));
    expect(((await within(section).findByTestId('delivery-feed-url')) as HTMLInputElement).value).toBe(
      'http://radar.test/api/delivery/feed/abc/',
    );

    await events.type(within(section).getByRole('textbox', { name: 'Webhook 地址' }), 'http://example.org/hook');
    await events.click(within(section).getByRole('button', { name: '保存机器人' }));
    expect(await within(section).findByText('Webhook 地址必须以 https:// 开头')).toBeTruthy();
  });
});
