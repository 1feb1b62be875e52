import { api, call, type Schemas, type Session } from '../api';
import { toast } from '../feedback';
import { Busy, ErrorText, go, Page, useLoad } from '../ui';
import { useAction } from '../use-action';

type Starter = Schemas['TemplateStarter'];

/**
 * The template gallery: Quire's starters with their first page, each made into a template of the team's
 * own with the ordinary POST /templates (the starter's name, HTML, CSS, sample data and print settings),
 * then opened in the editor.
 */
export function GalleryPage({ session }: { session: Session }) {
  const starters = useLoad(() => call(api.GET('/template-starters')), []);
  const { busy, running, error, run } = useAction();
  const live = session.mode === 'live';

  const use = async (starter: Starter) => {
    await run(
      async () => {
        const made = await call(
          api.POST('/templates', {
            body: {
              name: starter.name,
              html: starter.html,
              css: starter.css,
              sample_data: starter.sample_data,
              settings: starter.settings,
            },
          }),
        );
        toast(`Template ${starter.name} created from the gallery.`);
        go(`/templates/${made.id}`);
      },
      { label: starter.id },
    );
  };

  return (
    <Page title="Template gallery">
      <p class="hint">
        Professional starters in print mode with sample data and fonts Quire installs. Use one to make a
        template of your own, then change anything in the editor. Rendering them from your code:{' '}
        <a href="/docs" target="_blank" rel="noreferrer">
          API reference
        </a>
        ; placeholders and Quire's own filters (money, dates):{' '}
        <a href="/docs/liquid" target="_blank" rel="noreferrer">
          Liquid filters
        </a>
        .
      </p>
      {!live && (
        <p class="hint" id="gallery-reason">
          Switch to Live to create templates.
        </p>
      )}
      {starters.loading && <Busy label="Loading the gallery…" />}
      <ErrorText error={starters.error ?? error} />
      <ul class="gallery" data-testid="gallery">
        {starters.data?.data.map((starter) => (
          <li key={starter.id} class="card starter" data-starter={starter.id}>
            <img
              class="thumb"
              src={starter.thumbnail_url}
              alt={`First page of the ${starter.name} starter`}
              loading="lazy"
              width={240}
            />
            <h2>{starter.name}</h2>
            <p>{starter.description}</p>
            <button
              type="button"
              class="primary"
              disabled={!live || busy}
              aria-describedby={live ? undefined : 'gallery-reason'}
              onClick={() => use(starter)}
            >
              {running === starter.id ? 'Creating…' : `Use ${starter.name}`}
            </button>
          </li>
        ))}
      </ul>
    </Page>
  );
}
