from bench import site

site.run()
