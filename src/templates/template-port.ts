import type { PasswordBox } from '../finishing/index.js';
import type { ResolvedTemplate, TemplatePort } from '../production/index.js';
import type { Db } from '../storage/index.js';
import type { TemplateEngine } from './engine-port.js';
import { settingsToRender } from './protect-settings.js';
import { contentOf, readTemplate } from './records.js';
import { versionToUse } from './versions.js';

/** Cache key of a parsed version: versions are immutable, so id + number names the source exactly. */
export function parseCacheKey(templateId: string, version: number): string {
  return `template:${templateId}:${version}`;
}

/**
 * Template resolution for POST /pdf, previews and thumbnails: `template_version`, else the pinned version,
 * else the current one. Unknown, deleted, another team's template or a missing version → template_not_found.
 * Each version is parsed once per Liquid worker and kept in its byte-bounded cache.
 */
export function createTemplatePort(deps: {
  db: Db;
  engine: TemplateEngine;
  passwords: PasswordBox;
}): TemplatePort {
  return {
    async resolve(teamId, templateId, requested): Promise<ResolvedTemplate> {
      const { template, version } = await readTemplate(deps.db, teamId, templateId, (t) =>
        versionToUse(t, requested),
      );
      const content = contentOf(version);
      const cacheKey = parseCacheKey(template.id, version.version);
      return {
        id: template.id,
        version: version.version,
        name: template.name,
        css: content.css,
        sampleData: content.sampleData,
        settings: settingsToRender(deps.passwords, content.settings),
        render: (data) => deps.engine.renderStored(cacheKey, content.html, data),
      };
    },
  };
}
