from bench import portal, site

site.run()
portal.run()
