from bench import portal, site, staff

site.run()
portal.run()
staff.run()
